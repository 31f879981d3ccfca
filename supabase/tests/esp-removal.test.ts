// A refunded reader taken out of the advertiser's email tool (issue 38): only the campaign's advertiser, only a
// refunded reader, only one that was delivered; the removal is queued, claimed once with the key from Vault for
// deliver-esp, and its outcome recorded (removed with the time, retried after 429/5xx with the key paused, or failed
// with the provider's words, after which the advertiser may ask again). Both engines (PGlite, and PostgreSQL with
// TEST_DATABASE_URL).
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { anon, errorOf, queryAs, service, testDb } from './helpers/db'
import { createUser, type NewUser } from './helpers/fixtures'
import { ageSubscription, confirm, createMarket, subscribe, type Market } from './helpers/market'

const KEY = `kit-secret-${randomUUID()}`
let m: Market
let rival: NewUser

/** A confirmed reader of the market's campaign, delivered into Kit (the claim and finish deliver-esp makes). */
async function delivered() {
  const email = `remove-${randomUUID().slice(0, 8)}@example.com`
  const s = await subscribe(email, [m.campaignId], { sourceId: m.sourceId })
  await ageSubscription(email)
  await confirm(s.tokens[0]!, email)
  const db = await testDb()
  const row = await db.query<{ id: string; subscription_id: string }>(
    `select d.id, d.subscription_id from public.esp_deliveries d
     join public.newsletter_subscriptions s on s.id = d.subscription_id where s.email = $1`,
    [email],
  )
  const { id, subscription_id } = row.rows[0]!
  await db.query(
    "update public.esp_deliveries set status = 'delivered', remote_id = $2, delivered_at = now() where id = $1",
    [id, `kit-${id.slice(0, 6)}`],
  )
  return { deliveryId: id, subscriptionId: subscription_id, email }
}

const refund = (subscriptionId: string) =>
  queryAs(service, "select public.refund_subscription($1, 'Refunded in a test') as r", [subscriptionId])
const ask = (subscriptionId: string, actor = m.advertiser.actor) =>
  queryAs(actor, 'select public.remove_refunded_from_esp($1) as id', [subscriptionId])
const askError = (subscriptionId: string, actor = m.advertiser.actor) =>
  errorOf(actor, 'select public.remove_refunded_from_esp($1)', [subscriptionId])
const claim = () =>
  queryAs<{ id: string; provider: string; api_key: string; email: string; remote_id: string }>(
    service,
    'select * from public.claim_esp_removals(100)',
  )
const finish = (id: string, args = '200, null, false, null') =>
  queryAs<{ r: string }>(service, `select public.finish_esp_removal($1, ${args}) as r`, [id])
const removalOf = async (id: string) =>
  (
    await (
      await testDb()
    ).query<{ removal_status: string | null; removal_error: string | null; removed_at: Date | null }>(
      'select removal_status, removal_error, removed_at from public.esp_deliveries where id = $1',
      [id],
    )
  ).rows[0]!

beforeAll(async () => {
  m = await createMarket({ deposit: 200, price: 5, budget: 100 })
  rival = await createUser('advertiser')
  await queryAs(m.advertiser.actor, 'select public.save_esp_connection($1, $2, $3, $4, $5, $6)', [
    m.campaignId,
    'kit',
    KEY,
    '1001',
    'Demo form',
    false,
  ])
})

describe('remove_refunded_from_esp', () => {
  it('queues a refunded, delivered reader; the claim hands deliver-esp the key and the tool’s id once; success records when', async () => {
    const r = await delivered()
    await refund(r.subscriptionId)
    expect(await ask(r.subscriptionId)).toEqual([{ id: r.deliveryId }])
    expect((await removalOf(r.deliveryId)).removal_status).toBe('queued')
    expect(await askError(r.subscriptionId)).toBe('This reader is already being removed from your email tool')

    const claimed = (await claim()).filter((c) => c.id === r.deliveryId)
    expect(claimed).toEqual([
      {
        id: r.deliveryId,
        provider: 'kit',
        target_id: '1001',
        api_key: KEY,
        email: r.email,
        remote_id: `kit-${r.deliveryId.slice(0, 6)}`,
      },
    ])
    expect((await claim()).some((c) => c.id === r.deliveryId)).toBe(false)
    expect(await finish(r.deliveryId)).toEqual([{ r: 'removed' }])
    const done = await removalOf(r.deliveryId)
    expect(done).toMatchObject({ removal_status: 'removed', removal_error: null })
    expect(done.removed_at).toBeInstanceOf(Date)
    expect(await askError(r.subscriptionId)).toBe('This reader was already removed from your email tool')
  })

  it('refuses a rival, a publisher, anon, a reader still paid for and one never delivered', async () => {
    const paid = await delivered()
    expect(await askError(paid.subscriptionId)).toBe(
      'Only refunded readers can be removed from your email tool; this reader is still paid for',
    )
    await refund(paid.subscriptionId)
    expect(await askError(paid.subscriptionId, rival.actor)).toBe(
      'This reader was not sent to an email tool of yours: nothing to remove',
    )
    expect(await askError(paid.subscriptionId, m.publisher.actor)).toBe(
      'Only advertisers can remove readers from their email tool',
    )
    expect(await askError(paid.subscriptionId, anon)).toMatch(/permission denied/)
    expect((await removalOf(paid.deliveryId)).removal_status).toBeNull()

    const failed = await delivered()
    const db = await testDb()
    await db.query("update public.esp_deliveries set status = 'failed' where id = $1", [failed.deliveryId])
    await refund(failed.subscriptionId)
    expect(await askError(failed.subscriptionId)).toBe('This reader never reached your email tool: nothing to remove')

    for (const actor of [m.advertiser.actor, rival.actor, anon]) {
      expect(await errorOf(actor, 'select * from public.claim_esp_removals(10)')).toMatch(/permission denied/)
      expect(await errorOf(actor, 'select public.finish_esp_removal($1, 200)', [paid.deliveryId])).toMatch(
        /permission denied/,
      )
    }
  })

  it('refuses a 31st removal within a minute with a sentence, and queues nothing for it', async () => {
    const reader = await delivered()
    await refund(reader.subscriptionId)
    const db = await testDb()
    // The advertiser's 30 removals of this minute, as remove_refunded_from_esp counts them.
    await db.query(
      `insert into private.rate_limits (key, window_start, hits) values ($1, now(), 30)
       on conflict (key) do update set window_start = now(), hits = 30`,
      [`esp-remove:${m.advertiser.id}`],
    )
    try {
      expect(await askError(reader.subscriptionId)).toBe('You asked for 30 removals in the last minute; wait a moment')
      expect((await removalOf(reader.deliveryId)).removal_status).toBeNull()
    } finally {
      await db.query('delete from private.rate_limits where key = $1', [`esp-remove:${m.advertiser.id}`])
    }
  })

  it('retries a 429 with the key paused, fails a refusal with the tool’s words, and may be asked again', async () => {
    const r = await delivered()
    await refund(r.subscriptionId)
    await ask(r.subscriptionId)
    await claim()
    expect(await finish(r.deliveryId, "429, 'Retry later', true, 30000")).toEqual([{ r: 'queued' }])
    expect((await removalOf(r.deliveryId)).removal_error).toBe('Retry later')
    const db = await testDb()
    await db.query('update public.esp_deliveries set removal_next_attempt_at = now() where id = $1', [r.deliveryId])
    // The key is paused for Retry-After: nothing through it is claimed until then.
    expect((await claim()).some((c) => c.id === r.deliveryId)).toBe(false)
    await db.query("update private.esp_key_pauses set paused_until = now() - interval '1 second'")
    expect((await claim()).some((c) => c.id === r.deliveryId)).toBe(true)
    expect(await finish(r.deliveryId, "404, 'Not Found', false, null")).toEqual([{ r: 'failed' }])
    expect(await removalOf(r.deliveryId)).toMatchObject({ removal_status: 'failed', removal_error: 'Not Found' })

    expect(await ask(r.subscriptionId)).toEqual([{ id: r.deliveryId }])
    expect(await removalOf(r.deliveryId)).toMatchObject({ removal_status: 'queued', removal_error: null })
  })
})
