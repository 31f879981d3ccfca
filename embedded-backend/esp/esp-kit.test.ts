// Contract: the Kit client (supabase/functions/_shared/esp/kit.ts) against the local ESP sandbox, which
// answers as Kit API v4 documents (X-Kit-Api-Key, forms, create subscriber then add to form, `errors`).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { espClient } from '../../supabase/functions/_shared/esp/index.ts'
import { kitClient } from '../../supabase/functions/_shared/esp/kit.ts'
import { ESP_SANDBOX_KEYS, SANDBOX_TARGETS } from './common'
import { startEspSandbox, SUBSCRIBER, type EspSandbox } from '../testing/esp-sandbox'

let sandbox: EspSandbox
beforeAll(async () => {
  sandbox = await startEspSandbox()
})
afterAll(() => sandbox?.close())
beforeEach(() => sandbox.clear())

const KEY = ESP_SANDBOX_KEYS.kit
const FORM = SANDBOX_TARGETS.kit[1]!.id
const client = () => espClient('kit', (name) => sandbox.env[name])

describe('Kit client against the sandbox', () => {
  it('takes its base URL from ESP_KIT_API_URL and defaults to the real API', async () => {
    expect(sandbox.env.ESP_KIT_API_URL).toBe(`${sandbox.apiUrl}/esp/kit/v4`)
    const calls: string[] = []
    const spy = (async (url: string) => {
      calls.push(String(url))
      return new Response('{"forms":[],"pagination":{"has_next_page":false}}', { status: 200 })
    }) as unknown as typeof fetch
    await espClient('kit', () => undefined, { fetch: spy }).listTargets('k')
    expect(calls[0]).toMatch(/^https:\/\/api\.kit\.com\/v4\/forms\?/)
  })

  it('lists forms with GET /v4/forms and the X-Kit-Api-Key header', async () => {
    expect(await client().listTargets(KEY)).toEqual({ ok: true, targets: SANDBOX_TARGETS.kit })
    const [req] = await sandbox.requests('kit')
    expect(req).toMatchObject({ method: 'GET', status: 200, auth: 'X-Kit-Api-Key loca…-key' })
    expect(req!.path).toMatch(/^\/v4\/forms\?/)
  })

  it('delivers in two steps: POST /v4/subscribers as active, then POST /v4/forms/{id}/subscribers with a referrer naming Growletter and the source', async () => {
    const result = await kitClient({
      baseUrl: sandbox.env.ESP_KIT_API_URL,
      siteUrl: 'https://growletter.example/',
    }).deliver(KEY, FORM, SUBSCRIBER)
    expect(result).toMatchObject({ ok: true, remoteId: expect.stringMatching(/^\d+$/) })
    const [create, add] = await sandbox.requests('kit')
    expect(create).toMatchObject({
      method: 'POST',
      path: '/v4/subscribers',
      status: 201,
      auth: 'X-Kit-Api-Key loca…-key',
    })
    expect(create!.body).toEqual({ email_address: SUBSCRIBER.email, state: 'active' })
    expect(add).toMatchObject({ method: 'POST', path: `/v4/forms/${FORM}/subscribers`, status: 201 })
    expect(add!.body).toEqual({
      email_address: SUBSCRIBER.email,
      referrer:
        'https://growletter.example/?utm_source=growletter&utm_medium=The+Morning+Fold&utm_campaign=Winter+launch',
    })
    const onForm = (await sandbox.subscribers('kit')).find((s) => s.target === FORM)
    expect(onForm).toMatchObject({
      email: 'reader.one@example.com',
      remoteId: (result as { remoteId: string }).remoteId,
    })
  })

  it('reads engagement with GET /v4/subscribers/{id}/stats, by the id Kit gave at delivery; machines are not told apart', async () => {
    const delivered = await client().deliver(KEY, FORM, SUBSCRIBER)
    const remoteId = (delivered as { remoteId: string }).remoteId
    expect(await client().engagement!(KEY, FORM, SUBSCRIBER.email, remoteId)).toEqual({
      ok: true,
      engagement: { opens: 0, clicks: 0, engaged: false },
    })
    // A person opened once; a privacy proxy opened twice and a link scanner clicked once: Kit reports the totals.
    const told = await sandbox.control('engagement', {
      provider: 'kit',
      email: SUBSCRIBER.email,
      opens: 1,
      clicks: 0,
      machine_opens: 2,
      machine_clicks: 1,
    })
    expect(told.status).toBe(200)
    expect(await client().engagement!(KEY, FORM, SUBSCRIBER.email, remoteId)).toEqual({
      ok: true,
      engagement: { opens: 3, clicks: 1, engaged: true },
    })
    const reads = (await sandbox.requests('kit')).filter((r) => r.method === 'GET')
    expect(reads.map((r) => `${r.status} ${r.path}`)).toEqual([
      `200 /v4/subscribers/${remoteId}/stats`,
      `200 /v4/subscribers/${remoteId}/stats`,
    ])
    // Without the id there is nothing to read by: final, said in words.
    expect(await client().engagement!(KEY, FORM, SUBSCRIBER.email, null)).toMatchObject({
      ok: false,
      retryable: false,
      message: 'Kit gave this subscriber no id to read stats by',
    })
    expect(await client().engagement!(KEY, FORM, SUBSCRIBER.email, '999')).toMatchObject({ ok: false, status: 404 })
  })

  it('tests the connection by finding the form under the key; a wrong key fails with Kit’s message, final', async () => {
    expect(await client().testConnection(KEY, FORM)).toEqual({ ok: true, target: SANDBOX_TARGETS.kit[1] })
    expect(await client().testConnection(KEY, '999')).toMatchObject({ ok: false, retryable: false, status: 404 })
    expect(await client().testConnection('wrong-key', FORM)).toEqual({
      ok: false,
      retryable: false,
      status: 401,
      message: 'The access token is invalid',
    })
  })

  it('answers two 429s ("Retry later", no Retry-After, as Kit documents) as retryable after Kit’s 60 s window, then delivers', async () => {
    await sandbox.control('fail', { provider: 'kit', status: 429, count: 2 })
    const expected = { ok: false, retryable: true, status: 429, retryAfterMs: 60_000, message: 'Retry later' }
    expect(await client().deliver(KEY, FORM, SUBSCRIBER)).toEqual(expected)
    expect(await client().deliver(KEY, FORM, SUBSCRIBER)).toEqual(expected)
    expect(await client().deliver(KEY, FORM, SUBSCRIBER)).toMatchObject({ ok: true })
    expect((await sandbox.requests('kit')).map((r) => r.status)).toEqual([429, 429, 201, 201])
  })

  it('honours a Retry-After when one is sent', async () => {
    await sandbox.control('fail', { provider: 'kit', status: 429, count: 1, retryAfterSeconds: 12 })
    expect(await client().listTargets(KEY)).toMatchObject({
      ok: false,
      retryable: true,
      status: 429,
      retryAfterMs: 12_000,
    })
  })

  it('answers a 500 as retryable without a wait, and the retry delivers', async () => {
    await sandbox.control('fail', { provider: 'kit', status: 500, count: 1 })
    const failed = await client().deliver(KEY, FORM, SUBSCRIBER)
    expect(failed).toMatchObject({ ok: false, retryable: true, status: 500 })
    expect(failed).not.toHaveProperty('retryAfterMs')
    expect(await client().deliver(KEY, FORM, SUBSCRIBER)).toMatchObject({ ok: true })
    expect((await sandbox.requests('kit')).map((r) => r.status)).toEqual([500, 201, 201])
  })

  it('ends a 422 as final with Kit’s own message', async () => {
    expect(await client().deliver(KEY, FORM, { ...SUBSCRIBER, email: 'someone@nowhere.invalid' })).toEqual({
      ok: false,
      retryable: false,
      status: 422,
      message: 'Email address is invalid',
    })
  })
})
