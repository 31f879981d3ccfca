// Contract: the MailerLite client (supabase/functions/_shared/esp/mailerlite.ts) against the local ESP
// sandbox, which answers as the MailerLite API documents (Bearer token, groups, upsert subscriber, 422s).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { espClient } from '../../supabase/functions/_shared/esp/index.ts'
import { ESP_SANDBOX_KEYS, SANDBOX_TARGETS } from './common'
import { startEspSandbox, SUBSCRIBER, type EspSandbox } from '../testing/esp-sandbox'

let sandbox: EspSandbox
beforeAll(async () => {
  sandbox = await startEspSandbox()
})
afterAll(() => sandbox?.close())
beforeEach(() => sandbox.clear())

const KEY = ESP_SANDBOX_KEYS.mailerlite
const GROUP = SANDBOX_TARGETS.mailerlite[0]!.id
const client = () => espClient('mailerlite', (name) => sandbox.env[name])

describe('MailerLite client against the sandbox', () => {
  it('takes its base URL from ESP_MAILERLITE_API_URL and defaults to the real API', async () => {
    expect(sandbox.env.ESP_MAILERLITE_API_URL).toBe(`${sandbox.apiUrl}/esp/mailerlite/api`)
    const calls: string[] = []
    const spy = (async (url: string) => {
      calls.push(String(url))
      return new Response('{"data":[],"meta":{"last_page":1}}', { status: 200 })
    }) as unknown as typeof fetch
    await espClient('mailerlite', () => undefined, { fetch: spy }).listTargets('k')
    expect(calls[0]).toMatch(/^https:\/\/connect\.mailerlite\.com\/api\/groups\?/)
  })

  it('lists groups with GET /api/groups and the Bearer token', async () => {
    expect(await client().listTargets(KEY)).toEqual({ ok: true, targets: SANDBOX_TARGETS.mailerlite })
    const [req] = await sandbox.requests('mailerlite')
    expect(req).toMatchObject({
      method: 'GET',
      path: '/api/groups?limit=250&page=1',
      status: 200,
      auth: 'Bearer loca…-key',
    })
  })

  it('delivers with POST /api/subscribers as active, in the group, with opted_in_at and optin_ip', async () => {
    const result = await client().deliver(KEY, GROUP, SUBSCRIBER)
    expect(result).toMatchObject({ ok: true, remoteId: expect.stringMatching(/^\d+$/) })
    const [req] = await sandbox.requests('mailerlite')
    expect(req).toMatchObject({ method: 'POST', path: '/api/subscribers', status: 201, auth: 'Bearer loca…-key' })
    expect(req!.body).toEqual({
      email: SUBSCRIBER.email,
      groups: [GROUP],
      status: 'active',
      opted_in_at: '2026-11-20 09:15:30',
      optin_ip: '203.0.113.7',
    })
    // The same person again is an update (200), with the same id.
    expect(await client().deliver(KEY, GROUP, SUBSCRIBER)).toEqual(result)
    expect((await sandbox.requests('mailerlite')).at(-1)!.status).toBe(200)
  })

  it('reads engagement back from the subscriber’s opens and clicks', async () => {
    await client().deliver(KEY, GROUP, SUBSCRIBER)
    expect(await client().engagement!(KEY, GROUP, SUBSCRIBER.email)).toEqual({
      ok: true,
      engagement: { opens: 0, clicks: 0, engaged: false },
    })
    await sandbox.control('engagement', { provider: 'mailerlite', email: SUBSCRIBER.email, opens: 2, clicks: 1 })
    expect(await client().engagement!(KEY, GROUP, SUBSCRIBER.email)).toEqual({
      ok: true,
      engagement: { opens: 2, clicks: 1, engaged: true },
    })
    expect((await sandbox.requests('mailerlite')).at(-1)!.path).toBe(
      `/api/subscribers/${encodeURIComponent(SUBSCRIBER.email)}`,
    )
  })

  it('tests the connection by finding the group under the token; a wrong token fails with MailerLite’s message, final', async () => {
    expect(await client().testConnection(KEY, GROUP)).toEqual({ ok: true, target: SANDBOX_TARGETS.mailerlite[0] })
    expect(await client().testConnection(KEY, '42')).toMatchObject({ ok: false, retryable: false, status: 404 })
    expect(await client().testConnection('wrong', GROUP)).toEqual({
      ok: false,
      retryable: false,
      status: 401,
      message: 'Unauthenticated.',
    })
  })

  it('answers two 429s as retryable with Retry-After, then delivers', async () => {
    await sandbox.control('fail', { provider: 'mailerlite', status: 429, count: 2 })
    // No wait named in the control call: the sandbox sends MailerLite's own Retry-After (60 s here).
    const expected = { ok: false, retryable: true, status: 429, retryAfterMs: 60_000, message: 'Too Many Attempts.' }
    expect(await client().deliver(KEY, GROUP, SUBSCRIBER)).toMatchObject(expected)
    expect(await client().deliver(KEY, GROUP, SUBSCRIBER)).toMatchObject(expected)
    expect(await client().deliver(KEY, GROUP, SUBSCRIBER)).toMatchObject({ ok: true })
    expect((await sandbox.requests('mailerlite')).map((r) => r.status)).toEqual([429, 429, 201])
  })

  it('answers a 503 as retryable', async () => {
    await sandbox.control('fail', { provider: 'mailerlite', status: 503, count: 1 })
    expect(await client().deliver(KEY, GROUP, SUBSCRIBER)).toMatchObject({ ok: false, retryable: true, status: 503 })
  })

  it('ends a 422 as final with MailerLite’s field message', async () => {
    expect(await client().deliver(KEY, GROUP, { ...SUBSCRIBER, email: 'someone@nowhere.invalid' })).toEqual({
      ok: false,
      retryable: false,
      status: 422,
      message: 'The email must be a valid email address.',
    })
    expect(await client().deliver(KEY, '42', SUBSCRIBER)).toEqual({
      ok: false,
      retryable: false,
      status: 422,
      message: 'The selected groups.0 is invalid.',
    })
  })
})
