// Contract: each ESP client's `remove` (issue 38: a refunded reader taken out of the advertiser's email tool) against
// the local sandbox, which answers as each provider's API documents: beehiiv deletes the subscription, Kit
// unsubscribes the subscriber, Mailchimp marks the member unsubscribed, MailerLite unassigns the group. A subscriber
// the tool no longer has counts as removed; any other refusal keeps the provider's own words.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { espClient, subscriberHash, type EspProvider } from '../../supabase/functions/_shared/esp/index.ts'
import { ESP_SANDBOX_KEYS, SANDBOX_TARGETS } from './common'
import { startEspSandbox, SUBSCRIBER, type EspSandbox } from '../testing/esp-sandbox'

let sandbox: EspSandbox
beforeAll(async () => {
  sandbox = await startEspSandbox()
})
afterAll(() => sandbox?.close())
beforeEach(() => sandbox.clear())

const client = (provider: EspProvider) => espClient(provider, (name) => sandbox.env[name])
const list = (provider: EspProvider) => SANDBOX_TARGETS[provider][0]!.id

async function delivered(provider: EspProvider, email: string) {
  const result = await client(provider).deliver(ESP_SANDBOX_KEYS[provider], list(provider), { ...SUBSCRIBER, email })
  if (!result.ok) throw new Error(result.message)
  return result.remoteId
}
/** The requests after the delivery's, oldest first. */
const removalRequests = async (provider: EspProvider, deliveryRequests: number) =>
  (await sandbox.requests(provider)).slice(deliveryRequests)

describe('removing a refunded reader from the email tool', () => {
  it('beehiiv: DELETE /v2/publications/{publicationId}/subscriptions/{subscriptionId} with the bearer key', async () => {
    const email = 'gone-beehiiv@example.com'
    const id = await delivered('beehiiv', email)
    expect(await client('beehiiv').remove(ESP_SANDBOX_KEYS.beehiiv, list('beehiiv'), id, email)).toEqual({
      ok: true,
      alreadyGone: false,
    })
    const [req] = await removalRequests('beehiiv', 1)
    expect(req).toMatchObject({
      method: 'DELETE',
      path: `/v2/publications/${list('beehiiv')}/subscriptions/${id}`,
      status: 204,
      auth: 'Bearer loca…-key',
    })
    expect((await sandbox.subscribers('beehiiv')).some((s) => s.email === email)).toBe(false)
    // Asked again: beehiiv has no such subscription any more, which is what was wanted.
    expect(await client('beehiiv').remove(ESP_SANDBOX_KEYS.beehiiv, list('beehiiv'), id, email)).toEqual({
      ok: true,
      alreadyGone: true,
    })
  })

  it('Kit: POST /v4/subscribers/{id}/unsubscribe, and the subscriber is cancelled', async () => {
    const email = 'gone-kit@example.com'
    const id = await delivered('kit', email)
    expect(await client('kit').remove(ESP_SANDBOX_KEYS.kit, list('kit'), id, email)).toEqual({
      ok: true,
      alreadyGone: false,
    })
    const [req] = await removalRequests('kit', 2)
    expect(req).toMatchObject({
      method: 'POST',
      path: `/v4/subscribers/${id}/unsubscribe`,
      status: 204,
      auth: 'X-Kit-Api-Key loca…-key',
    })
    const rows = (await sandbox.subscribers('kit')).filter((s) => s.email === email)
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.every((s) => s.fields.state === 'cancelled')).toBe(true)
  })

  it('Mailchimp: PATCH /3.0/lists/{list_id}/members/{subscriber_hash} with status unsubscribed', async () => {
    const email = 'Gone-Mailchimp@example.com'
    const id = await delivered('mailchimp', email)
    expect(await client('mailchimp').remove(ESP_SANDBOX_KEYS.mailchimp, list('mailchimp'), id, email)).toEqual({
      ok: true,
      alreadyGone: false,
    })
    const [req] = await removalRequests('mailchimp', 2)
    expect(req).toMatchObject({
      method: 'PATCH',
      path: `/3.0/lists/${list('mailchimp')}/members/${subscriberHash(email)}`,
      status: 200,
    })
    expect(req!.body).toEqual({ status: 'unsubscribed' })
    const member = (await sandbox.subscribers('mailchimp')).find((s) => s.email === email.toLowerCase())
    expect(member?.fields.status).toBe('unsubscribed')
  })

  it('MailerLite: DELETE /api/subscribers/{id}/groups/{group_id}; the subscriber leaves the group', async () => {
    const email = 'gone-mailerlite@example.com'
    const id = await delivered('mailerlite', email)
    expect(await client('mailerlite').remove(ESP_SANDBOX_KEYS.mailerlite, list('mailerlite'), id, email)).toEqual({
      ok: true,
      alreadyGone: false,
    })
    const [req] = await removalRequests('mailerlite', 1)
    expect(req).toMatchObject({
      method: 'DELETE',
      path: `/api/subscribers/${id}/groups/${list('mailerlite')}`,
      status: 204,
      auth: 'Bearer loca…-key',
    })
    const left = await sandbox.subscribers('mailerlite')
    expect(left.some((s) => s.email === email && s.target === list('mailerlite'))).toBe(false)
  })

  it('a wrong key is a final failure in the provider’s words', async () => {
    expect(await client('mailerlite').remove('not-the-key', list('mailerlite'), '1', 'x@example.com')).toEqual({
      ok: false,
      retryable: false,
      status: 401,
      message: 'Unauthenticated.',
    })
  })

  it('a provider outage is retryable', async () => {
    const email = 'outage@example.com'
    const id = await delivered('kit', email)
    await sandbox.control('fail', { provider: 'kit', status: 503, count: 1 })
    const result = await client('kit').remove(ESP_SANDBOX_KEYS.kit, list('kit'), id, email)
    expect(result).toMatchObject({ ok: false, retryable: true, status: 503 })
  })
})
