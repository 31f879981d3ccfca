// Subscribers the advertiser takes home, end to end in the embedded backend: the export-subscribers function
// streams RFC 4180 CSV with formula-injection escaping and never a pending address; a confirmation queues
// subscriber.confirmed, pg_net calls deliver-webhooks, and a local receiver gets it signed so that it verifies
// with the standardwebhooks package; a receiver that answers 500, drops the connection or redirects to a
// private address is logged for retry without holding up the others. Plus the pure helpers under Node.
import { createHash, randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { csvRow } from '../_shared/rules/csv.ts'
import { isPublicIp } from '../_shared/public-address.ts'
import { checkWebhookTarget } from '../_shared/webhook-target.ts'
import { signedWebhookHeaders } from '../_shared/webhook-signing.ts'
import { startBackend, type Backend } from '../../../embedded-backend/server'

const CAMPAIGN = '20000000-0000-4000-a000-000000000001' // the demo advertiser's active campaign (seed)
const hash = (token: string) => createHash('sha256').update(token).digest('hex')
type Received = { path: string; headers: http.IncomingHttpHeaders; body: string }

let backend: Backend
let receiver: http.Server
let receiverUrl: string
const received: Received[] = []

async function signIn(email: string) {
  const res = await fetch(`${backend.apiUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: backend.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'growletter-demo' }),
  })
  return ((await res.json()) as { access_token: string }).access_token
}

async function subscriber(email: string, confirmIt: boolean) {
  const token = randomUUID()
  await backend.db.query('select * from public.create_pending_subscriptions($1, $2::uuid[], $3::text[])', [
    email,
    [CAMPAIGN],
    [hash(token)],
  ])
  if (!confirmIt) return
  await backend.db.query(
    "update public.newsletter_subscriptions set armed_at = now() - interval '1 minute' where email = $1",
    [email],
  )
  await backend.db.query('select public.confirm_subscription($1, $2)', [hash(token), email])
}

async function endpoint(token: string, path: string) {
  const res = await fetch(`${backend.apiUrl}/rest/v1/rpc/create_webhook_endpoint`, {
    method: 'POST',
    headers: { apikey: backend.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ p_url: `${receiverUrl}${path}`, p_campaign_id: CAMPAIGN }),
  })
  expect(res.status).toBe(200)
  return ((await res.json()) as { id: string; secret: string }[])[0]!
}

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      if (req.url === '/fail') return void res.writeHead(500).end('nope')
      if (req.url === '/drop') return void req.socket.destroy()
      if (req.url === '/redirect') return void res.writeHead(307, { location: 'https://10.0.0.1/steal' }).end()
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
  backend = await startBackend({ port: 0, dataDir: null, seed: true, cron: false })
})
afterAll(async () => {
  await backend?.close()
  receiver?.close()
})

describe('export-subscribers', () => {
  it('answers confirmed subscribers as RFC 4180 CSV, escaped against formulas, and never a pending address', async () => {
    const tag = randomUUID().slice(0, 6)
    const formula = `=sum"1"-${tag}@example.com`
    const plus = `+${tag}@example.com`
    const pending = `pending-${tag}@example.com`
    await subscriber(formula, true)
    await subscriber(plus, true)
    await subscriber(pending, false)
    const token = await signIn('advertiser@growletter.test')
    const res = await fetch(`${backend.apiUrl}/functions/v1/export-subscribers`, {
      method: 'POST',
      headers: { apikey: backend.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ campaignId: CAMPAIGN }),
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present')
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="subscribers-20000000-\d{4}-\d{2}-\d{2}\.csv"$/,
    )
    const csv = await res.text()
    const lines = csv.split('\r\n')
    expect(lines[0]).toBe('"email","confirmed_at","source","status","charged"')
    expect(lines.at(-1)).toBe('')
    expect(lines[1]).toMatch(new RegExp(`^"'\\+${tag}@example\\.com","[^"]+","","confirmed","no \\(no source\\)"$`))
    expect(lines[2]).toMatch(new RegExp(`^"'=sum""1""-${tag}@example\\.com",`))
    expect(csv).not.toContain(pending)
    // Every seed subscriber the demo advertiser may see is there, and only confirmed ones.
    const confirmed = await backend.db.query<{ n: number }>(
      'select count(*)::int as n from public.newsletter_subscriptions where campaign_id = $1 and confirmed_at is not null',
      [CAMPAIGN],
    )
    expect(lines.length - 2).toBe(confirmed.rows[0]!.n)
  })

  it('comes in parts when asked for fewer rows: each names the next, and the parts joined are the whole file', async () => {
    const token = await signIn('advertiser@growletter.test')
    const part = (body: Record<string, unknown>) =>
      fetch(`${backend.apiUrl}/functions/v1/export-subscribers`, {
        method: 'POST',
        headers: { apikey: backend.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ campaignId: CAMPAIGN, ...body }),
      })
    const whole = await (await part({})).text()
    const parts: string[] = []
    let after: string | null = null
    do {
      const res: Response = await part(after ? { after, rows: 2 } : { rows: 2 })
      expect(res.status).toBe(200)
      parts.push(await res.text())
      after = res.headers.get('x-export-next')
    } while (after && parts.length < 1000)
    expect(whole.split('\r\n').length - 2).toBeGreaterThan(2)
    expect(parts.length).toBeGreaterThan(1)
    expect(parts.slice(1).every((p) => !p.startsWith('"email"'))).toBe(true)
    expect(parts.join('')).toBe(whole)
    expect((await part({ after: 'not-a-cursor' })).status).toBe(400)
  })

  it('refuses a campaign that is not the caller’s', async () => {
    const token = await signIn('publisher@growletter.test')
    const res = await fetch(`${backend.apiUrl}/functions/v1/export-subscribers`, {
      method: 'POST',
      headers: { apikey: backend.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ campaignId: CAMPAIGN }),
    })
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({ error: 'You can only see subscribers of your own campaigns' })
  })
})

describe('deliver-webhooks', () => {
  it('delivers subscriber.confirmed signed per Standard Webhooks; failures are logged for retry, not blocking', async () => {
    const token = await signIn('advertiser@growletter.test')
    const ok = await endpoint(token, '/ok')
    await endpoint(token, '/fail')
    await endpoint(token, '/drop')
    await endpoint(token, '/redirect')
    const email = `hooked-${randomUUID().slice(0, 6)}@example.com`
    await subscriber(email, true)
    await backend.cron.drainNet()

    const hit = received.find((r) => r.path === '/ok')!
    const event = new Webhook(ok.secret).verify(hit.body, hit.headers as Record<string, string>) as {
      type: string
      data: { email: string; campaign_id: string }
    }
    expect(event.type).toBe('subscriber.confirmed')
    expect(event.data).toMatchObject({ email, campaign_id: CAMPAIGN })
    expect(hit.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/)
    // The redirect to a private address was never followed.
    expect(received.filter((r) => r.path === '/steal')).toEqual([])

    const log = await backend.db.query<{
      path: string
      status: string
      attempts: number
      response_status: number | null
      last_error: string | null
    }>(
      `select substring(w.url from '/[a-z]+$') as path, d.status, d.attempts, d.response_status, d.last_error
       from public.webhook_deliveries d join public.webhook_endpoints w on w.id = d.endpoint_id
       where d.payload -> 'data' ->> 'email' = $1 order by 1`,
      [email],
    )
    const byPath = Object.fromEntries(log.rows.map((r) => [r.path, r]))
    expect(byPath['/ok']).toEqual({
      path: '/ok',
      status: 'succeeded',
      attempts: 1,
      response_status: 204,
      last_error: null,
    })
    expect(byPath['/fail']).toMatchObject({
      status: 'pending',
      attempts: 1,
      response_status: 500,
      last_error: 'The endpoint answered 500',
    })
    expect(byPath['/drop']).toMatchObject({ status: 'pending', attempts: 1, response_status: null })
    expect(byPath['/drop']!.last_error).toMatch(/^Could not connect/)
    expect(byPath['/redirect']).toMatchObject({
      status: 'pending',
      last_error: 'Refused 10.0.0.1: a private, loopback or link-local address',
    })
  })

  it('the scheduled job delivers what is due when the immediate call was lost', async () => {
    await backend.db.query(
      "update public.webhook_deliveries set next_attempt_at = now() - interval '1 second' where status = 'pending'",
    )
    const before = received.length
    const t0 = new Date()
    await backend.cron.tick(t0)
    const runs = await backend.cron.tick(new Date(t0.getTime() + 60_000))
    expect(runs.find((r) => r.jobname === 'deliver-webhooks')).toMatchObject({ status: 'succeeded' })
    expect(received.length).toBeGreaterThan(before)
    const attempts = await backend.db.query<{ attempts: number }>(
      "select d.attempts from public.webhook_deliveries d join public.webhook_endpoints w on w.id = d.endpoint_id where w.url like '%/fail'",
    )
    expect(attempts.rows.every((r) => r.attempts === 2)).toBe(true)
  })
})

describe('pure helpers', () => {
  it('quotes every CSV field, doubles quotes, ends lines with CRLF and defuses formulas', () => {
    expect(csvRow(['a,b', 'say "hi"', 'line\nbreak', null, 42])).toBe('"a,b","say ""hi""","line\nbreak","","42"\r\n')
    expect(csvRow(['=1+1', '+x', '-x', '@x', '\tx', 'plain'])).toBe(`"'=1+1","'+x","'-x","'@x","'\tx","plain"\r\n`)
    // A plain number keeps its minus sign (a debit stays a number); anything more after it is still defused.
    expect(csvRow(['-12.50', '-3', '-1+2', '-2e3', '+3'])).toBe(`"-12.50","-3","'-1+2","'-2e3","'+3"\r\n`)
  })

  it.each([
    ['8.8.8.8', true],
    ['2606:4700::1111', true],
    ['127.0.0.1', false],
    ['10.0.0.1', false],
    ['172.31.255.255', false],
    ['172.32.0.1', true],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['255.255.255.255', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:8.8.8.8', false],
    ['2002:a00:1::', false],
    ['not-an-ip', false],
  ])('isPublicIp(%s) is %s', (ip, expected) => {
    expect(isPublicIp(ip)).toBe(expected)
  })

  it('checks every resolved address and every scheme rule', async () => {
    const resolveTo = (addresses: string[]) => async () => addresses
    await expect(
      checkWebhookTarget(new URL('https://hooks.example.com/x'), resolveTo(['93.184.215.14']), false),
    ).resolves.toBeUndefined()
    await expect(
      checkWebhookTarget(new URL('https://evil.example/x'), resolveTo(['93.184.215.14', '10.0.0.5']), false),
    ).rejects.toThrow('Refused evil.example: it resolves to 10.0.0.5, a private, loopback or link-local address')
    await expect(
      checkWebhookTarget(new URL('http://hooks.example.com/x'), resolveTo(['93.184.215.14']), false),
    ).rejects.toThrow('Refused http:// — webhooks are sent over https only')
    await expect(checkWebhookTarget(new URL('http://127.0.0.1:8080/x'), resolveTo([]), false)).rejects.toThrow(
      /https only/,
    )
    await expect(checkWebhookTarget(new URL('http://127.0.0.1:8080/x'), resolveTo([]), true)).resolves.toBeUndefined()
    await expect(checkWebhookTarget(new URL('https://0x7f.1/x'), resolveTo([]), false)).rejects.toThrow(
      'Refused 127.0.0.1: a private, loopback or link-local address',
    )
    await expect(checkWebhookTarget(new URL('https://nowhere.example/x'), resolveTo([]), false)).rejects.toThrow(
      'Could not resolve nowhere.example',
    )
  })

  it('signs the instant the timestamp header names, so a receiver verifies it whichever second the clock is in', () => {
    const secret = 'whsec_' + Buffer.from('a secret of the endpoint, 32 bytes').toString('base64')
    const webhook = new Webhook(secret)
    const body = JSON.stringify({ type: 'subscriber.confirmed', data: { email: 'a@example.com' } })
    // Signed 2.5 s ago: a header read from the clock again (as delivery did) names a later second than the signature.
    const sentAt = new Date(Date.now() - 2_500)
    const headers = signedWebhookHeaders((id, at, payload) => webhook.sign(id, at, payload), 'msg_1', body, sentAt)
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(sentAt.getTime() / 1000)))
    expect(webhook.verify(body, headers)).toEqual(JSON.parse(body))
    expect(headers).toMatchObject({ 'webhook-id': 'msg_1', 'content-type': 'application/json' })
  })
})
