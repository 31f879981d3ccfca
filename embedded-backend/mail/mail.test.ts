// The dev mailbox on its own: SMTP sink + JSON API + page, on ephemeral ports, fed by the backend's
// nodemailer-based mailer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSmtpMailer, startMailbox, type Mailbox } from './index'
import type { SmtpMailer } from './smtp-mailer'

let mailbox: Mailbox
let mailer: SmtpMailer

beforeAll(async () => {
  mailbox = await startMailbox({ httpPort: 0, smtpPort: 0, host: '127.0.0.1' })
  mailer = createSmtpMailer({ host: '127.0.0.1', port: mailbox.smtpPort })
})
afterAll(async () => {
  mailer?.close()
  await mailbox?.close()
})

const api = (path: string, init?: RequestInit) => fetch(`${mailbox.httpUrl}${path}`, init)

describe('dev mailbox', () => {
  it('binds ephemeral ports when asked for port 0', () => {
    expect(mailbox.smtpPort).toBeGreaterThan(0)
    expect(mailbox.httpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it('stores sent mail and lists it newest first with id, from, to, subject, date, text, html', async () => {
    await api('/api/messages', { method: 'DELETE' })
    await mailer.send({ to: 'first@example.test', subject: 'First', html: '<p>One</p>', text: 'One' })
    await mailer.send({
      to: 'second@example.test',
      subject: 'Second',
      html: '<p>Two <a href="http://x.test/verify?a=1&amp;b=2">link</a></p>',
      text: 'Two',
    })
    const res = await api('/api/messages')
    expect(res.status).toBe(200)
    const list = (await res.json()) as Array<Record<string, string>>
    expect(list.map((m) => m.subject)).toEqual(['Second', 'First'])
    expect(list[0]).toEqual({
      id: expect.any(String),
      from: expect.stringContaining('no-reply@growletter.test'),
      to: 'second@example.test',
      subject: 'Second',
      date: expect.any(String),
      text: 'Two',
      html: expect.stringContaining('href="http://x.test/verify?a=1&amp;b=2"'),
    })
    expect(Number.isNaN(Date.parse(list[0]!.date!))).toBe(false)
  })

  it('returns one message by id, and 404 for an unknown id', async () => {
    const [latest] = (await (await api('/api/messages')).json()) as Array<{ id: string; subject: string }>
    const one = await api(`/api/messages/${latest!.id}`)
    expect(await one.json()).toMatchObject({ id: latest!.id, subject: latest!.subject })
    expect((await api('/api/messages/nope')).status).toBe(404)
  })

  it('filters by recipient with ?to=', async () => {
    const list = (await (await api('/api/messages?to=first@example.test')).json()) as Array<{ subject: string }>
    expect(list.map((m) => m.subject)).toEqual(['First'])
  })

  it('renders the page with the HTML body in a sandboxed iframe and escapes what it shows', async () => {
    await mailer.send({
      to: 'page@example.test',
      subject: '<script>alert(1)</script>',
      html: '<p>Hello <b>reader</b></p>',
      text: 'Hello',
    })
    const page = await (await api('/')).text()
    expect(page).toContain('Growletter dev mailbox')
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(page).not.toContain('<script>alert(1)</script>')
    expect(page).toMatch(
      /<iframe[^>]*sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation"/,
    )
    expect(page).toContain('srcdoc="&lt;base target=&quot;_top&quot;&gt;&lt;p&gt;Hello')
  })

  it('puts the base tag inside the head of a full HTML email, after its doctype', async () => {
    await mailer.send({
      to: 'full@example.test',
      subject: 'Full',
      html: '<!doctype html><html><head><title>t</title></head><body>b</body></html>',
      text: 'b',
    })
    const [latest] = (await (await api('/api/messages')).json()) as Array<{ id: string }>
    const page = await (await api(`/?id=${latest!.id}`)).text()
    expect(page).toContain(
      'srcdoc="&lt;!doctype html&gt;&lt;html&gt;&lt;head&gt;&lt;base target=&quot;_top&quot;&gt;&lt;title&gt;',
    )
  })

  it('keeps an idle connection 65 s, as the API does, so a client reusing it is not reset', async () => {
    const response = await api('/api/messages')
    await response.arrayBuffer()
    expect(response.headers.get('keep-alive')).toBe('timeout=65')
  })

  it('deletes every message', async () => {
    expect((await api('/api/messages', { method: 'DELETE' })).status).toBe(200)
    expect(await (await api('/api/messages')).json()).toEqual([])
  })

  it('takes a burst of 50 messages through the pooled mailer', async () => {
    const started = performance.now()
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        mailer.send({ to: `burst-${i}@example.test`, subject: `Burst ${i}`, html: `<p>${i}</p>`, text: String(i) }),
      ),
    )
    const elapsed = performance.now() - started
    const list = (await (await api('/api/messages')).json()) as unknown[]
    expect(list).toHaveLength(50)
    console.info(`[mail] 50 messages through the pooled mailer in ${elapsed.toFixed(0)} ms`)
  })

  it('closes promptly while a pooled sender still holds its connection open', async () => {
    const other = await startMailbox({ httpPort: 0, smtpPort: 0, host: '127.0.0.1' })
    const sender = createSmtpMailer({ host: '127.0.0.1', port: other.smtpPort })
    await sender.send({ to: 'late@example.test', subject: 'Late', html: '<p>late</p>', text: 'late' })
    const started = performance.now()
    await other.close()
    expect(performance.now() - started).toBeLessThan(5000)
    sender.close()
  })
})
