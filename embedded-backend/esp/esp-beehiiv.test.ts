// Contract: the beehiiv client (supabase/functions/_shared/esp/beehiiv.ts) against the local ESP sandbox,
// which answers as beehiiv API v2 documents (Bearer key, publications, subscriptions, errors).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { beehiivClient } from '../../supabase/functions/_shared/esp/beehiiv.ts'
import { espClient } from '../../supabase/functions/_shared/esp/index.ts'
import { ESP_SANDBOX_KEYS, SANDBOX_TARGETS } from './common'
import { startEspSandbox, SUBSCRIBER, type EspSandbox } from '../testing/esp-sandbox'

let sandbox: EspSandbox
beforeAll(async () => {
  sandbox = await startEspSandbox()
})
afterAll(() => sandbox?.close())
beforeEach(() => sandbox.clear())

const KEY = ESP_SANDBOX_KEYS.beehiiv
const PUB = SANDBOX_TARGETS.beehiiv[0]!.id
const client = () => espClient('beehiiv', (name) => sandbox.env[name])

describe('beehiiv client against the sandbox', () => {
  it('takes its base URL from ESP_BEEHIIV_API_URL and defaults to the real API', async () => {
    expect(sandbox.env.ESP_BEEHIIV_API_URL).toBe(`${sandbox.apiUrl}/esp/beehiiv/v2`)
    const calls: string[] = []
    const spy = (async (url: string) => {
      calls.push(String(url))
      return new Response('{"data":[],"total_pages":1}', { status: 200 })
    }) as unknown as typeof fetch
    await espClient('beehiiv', () => undefined, { fetch: spy }).listTargets('k')
    expect(calls[0]).toMatch(/^https:\/\/api\.beehiiv\.com\/v2\/publications\?/)
  })

  it('lists publications with GET /v2/publications and the Bearer key', async () => {
    const listed = await client().listTargets(KEY)
    expect(listed).toEqual({ ok: true, targets: SANDBOX_TARGETS.beehiiv })
    const [req] = await sandbox.requests('beehiiv')
    expect(req).toMatchObject({ method: 'GET', status: 200, auth: 'Bearer loca…-key' })
    expect(req!.path).toMatch(/^\/v2\/publications\?limit=100&page=1$/)
  })

  it('delivers with POST /v2/publications/{id}/subscriptions as already confirmed, with utm fields naming Growletter and the source', async () => {
    const result = await beehiivClient({
      baseUrl: sandbox.env.ESP_BEEHIIV_API_URL,
      siteUrl: 'https://growletter.example',
    }).deliver(KEY, PUB, SUBSCRIBER)
    expect(result).toMatchObject({ ok: true, remoteId: expect.stringMatching(/^sub_/) })
    const [req] = await sandbox.requests('beehiiv')
    expect(req).toMatchObject({
      method: 'POST',
      path: `/v2/publications/${PUB}/subscriptions`,
      status: 201,
      auth: 'Bearer loca…-key',
    })
    expect(req!.body).toEqual({
      email: SUBSCRIBER.email,
      reactivate_existing: false,
      double_opt_override: 'off',
      utm_source: 'Growletter',
      utm_medium: 'The Morning Fold',
      utm_campaign: 'Winter launch',
      referring_site: 'https://growletter.example',
    })
    const [held] = await sandbox.subscribers('beehiiv')
    expect(held).toMatchObject({
      target: PUB,
      email: 'reader.one@example.com',
      remoteId: (result as { remoteId: string }).remoteId,
    })
  })

  it('reads engagement back from the subscription by email with stats, as fractions', async () => {
    await client().deliver(KEY, PUB, SUBSCRIBER)
    expect(await client().engagement!(KEY, PUB, SUBSCRIBER.email)).toEqual({
      ok: true,
      engagement: { openRate: 0, clickRate: 0, engaged: false },
    })
    expect(
      (await sandbox.control('engagement', { provider: 'beehiiv', email: SUBSCRIBER.email, opens: 5, clicks: 1 }))
        .status,
    ).toBe(200)
    expect(await client().engagement!(KEY, PUB, SUBSCRIBER.email)).toEqual({
      ok: true,
      engagement: { openRate: 0.5, clickRate: 0.1, engaged: true },
    })
    const last = (await sandbox.requests('beehiiv')).at(-1)!
    expect(last.path).toBe(
      `/v2/publications/${PUB}/subscriptions/by_email/${encodeURIComponent(SUBSCRIBER.email)}?${encodeURIComponent('expand[]')}=stats`,
    )
  })

  it('tests the connection with GET /v2/publications/{id}; a wrong key fails with beehiiv’s message, final', async () => {
    expect(await client().testConnection(KEY, PUB)).toEqual({ ok: true, target: SANDBOX_TARGETS.beehiiv[0] })
    expect(await client().testConnection('wrong-key', PUB)).toEqual({
      ok: false,
      retryable: false,
      status: 401,
      message: 'Unauthorized',
    })
    expect(await client().testConnection(KEY, 'pub_missing')).toEqual({
      ok: false,
      retryable: false,
      status: 404,
      message: 'Publication not found',
    })
  })

  it('answers two 429s as retryable with Retry-After, then delivers', async () => {
    await sandbox.control('fail', { provider: 'beehiiv', status: 429, count: 2, retryAfterSeconds: 7 })
    const expected = { ok: false, retryable: true, status: 429, retryAfterMs: 7000 }
    expect(await client().deliver(KEY, PUB, SUBSCRIBER)).toMatchObject(expected)
    expect(await client().deliver(KEY, PUB, SUBSCRIBER)).toMatchObject(expected)
    expect(await client().deliver(KEY, PUB, SUBSCRIBER)).toMatchObject({ ok: true })
    expect((await sandbox.requests('beehiiv')).map((r) => r.status)).toEqual([429, 429, 201])
  })

  it('without Retry-After, honours beehiiv’s RateLimit-Reset (epoch seconds) as the wait', async () => {
    await sandbox.control('fail', { provider: 'beehiiv', status: 429, count: 1 })
    const result = await client().deliver(KEY, PUB, SUBSCRIBER)
    expect(result).toMatchObject({
      ok: false,
      retryable: true,
      status: 429,
      message: 'Too many requests (forced by the local ESP sandbox)',
    })
    // The sandbox sets the reset 60 s ahead, rounded up to a whole second.
    const wait = (result as { retryAfterMs: number }).retryAfterMs
    expect(wait).toBeGreaterThan(55_000)
    expect(wait).toBeLessThanOrEqual(61_000)
  })

  it('answers a 500 as retryable without a wait', async () => {
    await sandbox.control('fail', { provider: 'beehiiv', status: 500, count: 1 })
    const result = await client().deliver(KEY, PUB, SUBSCRIBER)
    expect(result).toMatchObject({ ok: false, retryable: true, status: 500 })
    expect(result).not.toHaveProperty('retryAfterMs')
  })

  it('ends a 400 as final with beehiiv’s own message', async () => {
    expect(await client().deliver(KEY, PUB, { ...SUBSCRIBER, email: 'someone@nowhere.invalid' })).toEqual({
      ok: false,
      retryable: false,
      status: 400,
      message: 'Invalid email: someone@nowhere.invalid',
    })
  })
})
