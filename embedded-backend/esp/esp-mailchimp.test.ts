// Contract: the Mailchimp client (supabase/functions/_shared/esp/mailchimp.ts) against the local ESP sandbox,
// which answers as the Marketing API v3 documents (Basic auth with the key, lists, PUT member by MD5 hash,
// tags, problem-document errors).
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { espClient, mailchimpApiUrl, subscriberHash } from '../../supabase/functions/_shared/esp/index.ts'
import { md5Hex } from '../../supabase/functions/_shared/esp/md5.ts'
import { ESP_SANDBOX_KEYS, SANDBOX_TARGETS } from './common'
import { startEspSandbox, SUBSCRIBER, type EspSandbox } from '../testing/esp-sandbox'

let sandbox: EspSandbox
beforeAll(async () => {
  sandbox = await startEspSandbox()
})
afterAll(() => sandbox?.close())
beforeEach(() => sandbox.clear())

const KEY = ESP_SANDBOX_KEYS.mailchimp
const LIST = SANDBOX_TARGETS.mailchimp[0]!.id
const HASH = createHash('md5').update('reader.one@example.com').digest('hex')
const client = () => espClient('mailchimp', (name) => sandbox.env[name])

describe('Mailchimp client against the sandbox', () => {
  it('derives the real base from the key’s data centre when ESP_MAILCHIMP_API_URL is unset', async () => {
    expect(mailchimpApiUrl('0123abcd-us21')).toBe('https://us21.api.mailchimp.com/3.0')
    expect(mailchimpApiUrl('no-data-centre')).toBeUndefined()
    const calls: string[] = []
    const spy = (async (url: string) => {
      calls.push(String(url))
      return new Response('{"lists":[],"total_items":0}', { status: 200 })
    }) as unknown as typeof fetch
    await espClient('mailchimp', () => undefined, { fetch: spy }).listTargets('0123abcd-us21')
    expect(calls[0]).toMatch(/^https:\/\/us21\.api\.mailchimp\.com\/3\.0\/lists\?/)
    expect(await espClient('mailchimp', () => undefined, { fetch: spy }).listTargets('bad')).toMatchObject({
      ok: false,
      retryable: false,
      status: 401,
    })
    expect(calls).toHaveLength(1)
  })

  it('names members by the MD5 of the lower-cased address, as node:crypto computes it', () => {
    expect(subscriberHash(' Reader.One@Example.com ')).toBe(HASH)
    for (const s of ['', 'a', 'é@ü.example', 'x'.repeat(55), 'x'.repeat(56), 'x'.repeat(64), 'x'.repeat(1000)]) {
      expect(md5Hex(s)).toBe(createHash('md5').update(s).digest('hex'))
    }
  })

  it('lists audiences with GET /3.0/lists and HTTP Basic auth carrying the key', async () => {
    expect(await client().listTargets(KEY)).toEqual({ ok: true, targets: SANDBOX_TARGETS.mailchimp })
    const [req] = await sandbox.requests('mailchimp')
    expect(req).toMatchObject({ method: 'GET', status: 200, auth: 'Basic loca…-us1' })
    expect(req!.path).toMatch(/^\/3\.0\/lists\?count=1000&offset=0/)
  })

  it('delivers with PUT /3.0/lists/{id}/members/{md5} as subscribed-if-new with ip_opt and timestamp_opt, then tags Growletter and the source', async () => {
    expect(await client().deliver(KEY, LIST, SUBSCRIBER)).toEqual({ ok: true, remoteId: HASH })
    const [put, tags] = await sandbox.requests('mailchimp')
    expect(put).toMatchObject({
      method: 'PUT',
      path: `/3.0/lists/${LIST}/members/${HASH}`,
      status: 200,
      auth: 'Basic loca…-us1',
    })
    expect(put!.body).toEqual({
      email_address: SUBSCRIBER.email,
      status_if_new: 'subscribed',
      ip_opt: '203.0.113.7',
      timestamp_opt: '2026-11-20T09:15:30+00:00',
    })
    expect(tags).toMatchObject({ method: 'POST', path: `/3.0/lists/${LIST}/members/${HASH}/tags`, status: 204 })
    expect(tags!.body).toEqual({
      tags: [
        { name: 'Growletter', status: 'active' },
        { name: 'Growletter: The Morning Fold', status: 'active' },
      ],
    })
  })

  it('leaves ip_opt out when the confirmation address is unknown', async () => {
    expect(await client().deliver(KEY, LIST, { ...SUBSCRIBER, ip: null })).toMatchObject({ ok: true })
    const [put] = await sandbox.requests('mailchimp')
    expect(put!.body).not.toHaveProperty('ip_opt')
  })

  it('reads engagement back from the member’s stats', async () => {
    await client().deliver(KEY, LIST, SUBSCRIBER)
    expect(await client().engagement!(KEY, LIST, SUBSCRIBER.email)).toEqual({
      ok: true,
      engagement: { openRate: 0, clickRate: 0, engaged: false },
    })
    await sandbox.control('engagement', { provider: 'mailchimp', email: SUBSCRIBER.email, opens: 3, clicks: 0 })
    expect(await client().engagement!(KEY, LIST, SUBSCRIBER.email)).toEqual({
      ok: true,
      engagement: { openRate: 0.3, clickRate: 0, engaged: true },
    })
    expect((await sandbox.requests('mailchimp')).at(-1)!.path).toBe(`/3.0/lists/${LIST}/members/${HASH}?fields=stats`)
  })

  it('tests the connection with GET /3.0/lists/{id}; a wrong key fails with Mailchimp’s detail, final', async () => {
    expect(await client().testConnection(KEY, LIST)).toEqual({ ok: true, target: SANDBOX_TARGETS.mailchimp[0] })
    expect(await client().testConnection('wrong-key-us1', LIST)).toEqual({
      ok: false,
      retryable: false,
      status: 401,
      message: "Your API key may be invalid, or you've attempted to access the wrong datacenter.",
    })
  })

  it('answers two 429s as retryable with Retry-After, then delivers', async () => {
    await sandbox.control('fail', { provider: 'mailchimp', status: 429, count: 2, retryAfterSeconds: 3 })
    const expected = { ok: false, retryable: true, status: 429, retryAfterMs: 3000 }
    expect(await client().deliver(KEY, LIST, SUBSCRIBER)).toMatchObject(expected)
    expect(await client().deliver(KEY, LIST, SUBSCRIBER)).toMatchObject(expected)
    expect(await client().deliver(KEY, LIST, SUBSCRIBER)).toMatchObject({ ok: true })
    expect((await sandbox.requests('mailchimp')).map((r) => r.status)).toEqual([429, 429, 200, 204])
  })

  it('a 429 without any rate-limit header (as Mailchimp sends it) is retryable with no wait named, and keeps Mailchimp’s detail', async () => {
    await sandbox.control('fail', { provider: 'mailchimp', status: 429, count: 1 })
    expect(await client().deliver(KEY, LIST, SUBSCRIBER)).toEqual({
      ok: false,
      retryable: true,
      status: 429,
      message: 'You have exceeded the limit of 10 simultaneous connections.',
    })
  })

  it('answers a 500 as retryable without a wait', async () => {
    await sandbox.control('fail', { provider: 'mailchimp', status: 500, count: 1 })
    const result = await client().deliver(KEY, LIST, SUBSCRIBER)
    expect(result).toMatchObject({ ok: false, retryable: true, status: 500 })
    expect(result).not.toHaveProperty('retryAfterMs')
  })

  it('ends a 400 as final with Mailchimp’s own detail', async () => {
    expect(await client().deliver(KEY, LIST, { ...SUBSCRIBER, email: 'someone@nowhere.invalid' })).toEqual({
      ok: false,
      retryable: false,
      status: 400,
      message: 'someone@nowhere.invalid looks fake or invalid, please enter a real email address.',
    })
  })
})
