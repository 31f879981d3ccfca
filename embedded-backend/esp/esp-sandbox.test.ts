// The local ESP sandbox in the embedded backend: reachable at /esp with no apikey, its ESP_*_API_URL passed to
// the functions (the clients run under Deno against it), forced failures validated, deliveries kept in the
// backend's database and shown on its page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rateLimitResetMs } from '../../supabase/functions/_shared/esp/http.ts'
import { espClient, ESP_PROVIDERS, retryAfterMs } from '../../supabase/functions/_shared/esp/index.ts'
import { openDatabase } from '../db/database'
import { initdbSnapshot } from '../db/snapshot'
import { ESP_SANDBOX_KEYS, SANDBOX_TARGETS } from './common'
import { createEspHandler } from './index'
import { createFunctionsHandler } from '../functions/index'
import { startBackend, type Backend } from '../server'
import { bodyOf, fixtures, request, runnerContext } from '../testing/functions-helpers'
import { SUBSCRIBER } from '../testing/esp-sandbox'

let backend: Backend
beforeAll(async () => {
  backend = await startBackend({ port: 0, dataDir: null, seed: false, cron: false })
}, 60_000)
afterAll(() => backend?.close())

const post = (path: string, body: unknown) =>
  fetch(`${backend.apiUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

describe('the ESP sandbox in the backend', () => {
  it('answers at /esp without a Supabase apikey, as the real providers do', async () => {
    const page = await fetch(`${backend.apiUrl}/esp/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/text\/html/)
    expect(await page.text()).toContain('Growletter local ESP sandbox')
    const api = await fetch(`${backend.apiUrl}/esp/kit/v4/forms`, {
      headers: { 'x-kit-api-key': ESP_SANDBOX_KEYS.kit },
    })
    expect(api.status).toBe(200)
    expect(((await api.json()) as { forms: unknown[] }).forms).toHaveLength(SANDBOX_TARGETS.kit.length)
  })

  it('sits beside the mailbox: each page links to the other', async () => {
    const mailbox = await (await fetch(`${backend.mailboxUrl}/`)).text()
    expect(mailbox).toContain(`href="${backend.apiUrl}/esp/"`)
    const esp = await (await fetch(`${backend.apiUrl}/esp/`)).text()
    expect(esp).toContain(`href="${backend.mailboxUrl}"`)
  })

  it('passes ESP_*_API_URL to the functions, and the clients deliver from Deno through them', async () => {
    const functions = createFunctionsHandler({ ...runnerContext(), apiUrl: backend.apiUrl }, { functionsDir: fixtures })
    try {
      const target = SANDBOX_TARGETS.mailchimp[1]!.id
      const answer = await functions(
        request('esp-probe', {
          body: Buffer.from(
            JSON.stringify({
              provider: 'mailchimp',
              key: ESP_SANDBOX_KEYS.mailchimp,
              target,
              subscriber: { ...SUBSCRIBER, email: 'deno.probe@example.com' },
            }),
          ),
        }),
      )
      expect(answer.status).toBe(200)
      const body = bodyOf(answer.body)
      expect(body.baseUrl).toBe(`${backend.apiUrl}/esp/mailchimp/3.0`)
      expect(body.listed).toEqual({ ok: true, targets: SANDBOX_TARGETS.mailchimp })
      expect(body.delivered).toMatchObject({ ok: true })
      const held = (await (await fetch(`${backend.apiUrl}/esp/_api/subscribers?provider=mailchimp`)).json()) as {
        email: string
        target: string
      }[]
      expect(held).toContainEqual(expect.objectContaining({ email: 'deno.probe@example.com', target }))
    } finally {
      await functions.close()
    }
  }, 60_000)

  it('refuses a forced failure it cannot play, saying what it accepts', async () => {
    const cases: [unknown, string][] = [
      [{ provider: 'sendgrid', status: 429 }, 'provider must be one of beehiiv, kit, mailchimp, mailerlite.'],
      [{ provider: 'kit', status: 404 }, 'status must be 429, 500, 502 or 503.'],
      [{ provider: 'kit', status: 429, count: -1 }, 'count must be a whole number from 0 to 1000.'],
      [
        { provider: 'kit', status: 429, retryAfterSeconds: 1.5 },
        'retryAfterSeconds must be a whole number of seconds from 0 to 86400.',
      ],
    ]
    for (const [body, message] of cases) {
      const answer = await post('/esp/_control/fail', body)
      expect(answer.status).toBe(400)
      expect(await answer.json()).toEqual({ message })
    }
    // Nothing was armed by the refused calls.
    const ok = await fetch(`${backend.apiUrl}/esp/kit/v4/forms`, { headers: { 'x-kit-api-key': ESP_SANDBOX_KEYS.kit } })
    expect(ok.status).toBe(200)
  })

  it('clears forced failures on DELETE', async () => {
    await post('/esp/_control/fail', { provider: 'kit', status: 500, count: 5 })
    await fetch(`${backend.apiUrl}/esp/_control/fail`, { method: 'DELETE' })
    const ok = await fetch(`${backend.apiUrl}/esp/kit/v4/forms`, { headers: { 'x-kit-api-key': ESP_SANDBOX_KEYS.kit } })
    expect(ok.status).toBe(200)
  })

  it('shows each delivery on its page with the fields received, escaped', async () => {
    const pub = SANDBOX_TARGETS.beehiiv[0]!.id
    const answer = await fetch(`${backend.apiUrl}/esp/beehiiv/v2/publications/${pub}/subscriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ESP_SANDBOX_KEYS.beehiiv}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'page.reader@example.com',
        double_opt_override: 'off',
        utm_source: 'Growletter',
        utm_medium: '<b>Fold</b>',
      }),
    })
    expect(answer.status).toBe(201)
    const html = await (await fetch(`${backend.apiUrl}/esp/`)).text()
    expect(html).toContain('page.reader@example.com')
    expect(html).toContain('<dt>double_opt_override</dt><dd>off</dd>')
    expect(html).toContain('&lt;b&gt;Fold&lt;/b&gt;')
    expect(html).not.toContain('<b>Fold</b>')
    expect(html).toContain(`POST /v2/publications/${pub}/subscriptions`)
  })
})

describe('the sandbox’s memory', () => {
  it('keeps deliveries and the request log in the backend’s database, so a restarted sandbox still lists them', async () => {
    const db = await openDatabase({ loadDataDir: await initdbSnapshot() })
    try {
      const first = createEspHandler({ db })
      const base = {
        query: new URLSearchParams(),
        ip: '127.0.0.1',
        role: 'anon' as const,
        claims: { role: 'anon' as const },
      }
      const group = SANDBOX_TARGETS.mailerlite[0]!.id
      const answer = await first({
        ...base,
        method: 'POST',
        path: '/mailerlite/api/subscribers',
        headers: { authorization: `Bearer ${ESP_SANDBOX_KEYS.mailerlite}` },
        body: Buffer.from(JSON.stringify({ email: 'kept@example.com', groups: [group], status: 'active' })),
      })
      expect(answer.status).toBe(201)
      const second = createEspHandler({ db })
      const held = await second({
        ...base,
        method: 'GET',
        path: '/_api/subscribers',
        query: new URLSearchParams({ provider: 'mailerlite' }),
        headers: {},
        body: Buffer.alloc(0),
      })
      expect(held.body).toEqual([expect.objectContaining({ email: 'kept@example.com', target: group })])
      const log = await second({ ...base, method: 'GET', path: '/_api/requests', headers: {}, body: Buffer.alloc(0) })
      expect(log.body).toEqual([
        expect.objectContaining({ provider: 'mailerlite', method: 'POST', path: '/api/subscribers', status: 201 }),
      ])
    } finally {
      await db.close()
    }
  })
})

describe('what every ESP client shares', () => {
  it('reads Retry-After as seconds or as an HTTP date, and ignores what it cannot read', () => {
    const now = Date.parse('2026-11-25T12:00:00Z')
    expect(retryAfterMs('120', now)).toBe(120_000)
    expect(retryAfterMs('Wed, 25 Nov 2026 12:00:30 GMT', now)).toBe(30_000)
    expect(retryAfterMs('Wed, 25 Nov 2026 11:00:00 GMT', now)).toBe(0)
    expect(retryAfterMs('soon', now)).toBeUndefined()
    expect(retryAfterMs(null, now)).toBeUndefined()
  })

  it('reads RateLimit-Reset as epoch seconds (beehiiv) or as seconds from now (the IETF draft)', () => {
    const now = Date.parse('2026-11-25T12:00:00Z')
    expect(rateLimitResetMs(String(now / 1000 + 45), now)).toBe(45_000)
    expect(rateLimitResetMs('30', now)).toBe(30_000)
    expect(rateLimitResetMs(String(now / 1000 - 5), now)).toBe(0)
    expect(rateLimitResetMs('later', now)).toBeUndefined()
  })

  it.each(ESP_PROVIDERS)('%s: no answer at all (connection refused) is retryable, status 0', async (provider) => {
    const env = (name: string) => (name.startsWith('ESP_') ? 'http://127.0.0.1:9/api' : undefined)
    const result = await espClient(provider, env).listTargets('any-key-us1')
    expect(result).toMatchObject({
      ok: false,
      retryable: true,
      status: 0,
      message: expect.stringMatching(/^Could not reach the provider/),
    })
  })

  it.each(ESP_PROVIDERS)(
    '%s: a confirmation time that is not a date is a final failure, and nothing is sent',
    async (provider) => {
      let calls = 0
      const spy = (async () => {
        calls++
        return new Response('{}', { status: 200 })
      }) as unknown as typeof fetch
      const result = await espClient(provider, () => 'http://127.0.0.1:9/api', { fetch: spy }).deliver('key-us1', '1', {
        ...SUBSCRIBER,
        confirmedAt: 'yesterday-ish',
      })
      expect(result).toEqual({
        ok: false,
        retryable: false,
        status: 0,
        message: 'The confirmation time "yesterday-ish" is not a date.',
      })
      expect(calls).toBe(0)
    },
  )

  it('follows each provider’s pagination to the last page of lists', async () => {
    // Two pages per provider, in each API's own pagination style; the URL says which page was asked for.
    const pages: Record<string, (url: URL) => unknown> = {
      beehiiv: (u) => ({
        data: [{ id: `pub_${u.searchParams.get('page')}`, name: 'P' }],
        page: Number(u.searchParams.get('page')),
        total_pages: 2,
      }),
      kit: (u) =>
        u.searchParams.get('after') === 'c1'
          ? { forms: [{ id: 2, name: 'F' }], pagination: { has_next_page: false, end_cursor: 'c2' } }
          : { forms: [{ id: 1, name: 'F' }], pagination: { has_next_page: true, end_cursor: 'c1' } },
      mailchimp: (u) => ({ lists: [{ id: `l${u.searchParams.get('offset')}`, name: 'L' }], total_items: 1500 }),
      mailerlite: (u) => ({ data: [{ id: `g${u.searchParams.get('page')}`, name: 'G' }], meta: { last_page: 2 } }),
    }
    const expected: Record<string, string[]> = {
      beehiiv: ['pub_1', 'pub_2'],
      kit: ['1', '2'],
      mailchimp: ['l0', 'l1000'],
      mailerlite: ['g1', 'g2'],
    }
    for (const provider of ESP_PROVIDERS) {
      const spy = (async (url: string) =>
        new Response(JSON.stringify(pages[provider]!(new URL(url))), { status: 200 })) as unknown as typeof fetch
      const listed = await espClient(provider, () => 'http://esp.test/base', { fetch: spy }).listTargets('key-us1')
      expect(listed.ok && listed.targets.map((t) => t.id), provider).toEqual(expected[provider])
    }
  })
})
