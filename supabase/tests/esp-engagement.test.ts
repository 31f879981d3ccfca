// Engagement read-back of subscribers delivered into the advertiser's email tool (issue 25): a delivered subscriber
// is due for a read 6 hours after the delivery (and 6 hours after each read) while in screening (7 days from the
// confirmation), for every provider (Kit since its per-subscriber stats); a claim spends the key's budget like a delivery and
// hands each read out once; the outcome keeps engaged/opens/clicks (never taken back), and a failure waits
// (Retry-After pauses the key). Kit is read too, by its subscriber id. esp_engagement_figures gives the engagement rate per source to the advertiser and
// the publisher, and to nobody else. Both engines (PGlite, and PostgreSQL with TEST_DATABASE_URL).
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { anon, errorOf, queryAs, service, testDb } from './helpers/db'
import { createUser, type NewUser } from './helpers/fixtures'
import { ageSubscription, confirm, createMarket, subscribe, type Market } from './helpers/market'

type Claim = {
  id: string
  provider: string
  target_id: string
  api_key: string
  email: string
  remote_id?: string | null
}
type Figure = {
  source_id: string
  source_name: string
  delivered: number
  checked: number
  engaged: number
  engagement_rate: string | null
}

let m: Market
let rival: NewUser
const KEY = `ml-engagement-${randomUUID()}`
const emails: string[] = []

async function confirmed(market: Market, withSource = true) {
  const email = `engage-${randomUUID().slice(0, 8)}@example.com`
  const s = await subscribe(email, [market.campaignId], withSource ? { sourceId: market.sourceId } : {})
  await ageSubscription(email)
  await confirm(s.tokens[0]!, email)
  return email
}

/** Delivers every queued delivery of the campaign (as deliver-esp would have). */
async function deliverAll(campaignId: string) {
  const db = await testDb()
  await db.query(
    `update public.esp_deliveries set status = 'delivered', delivered_at = now(), attempts = 1, locked_until = null
     where campaign_id = $1 and status = 'queued'`,
    [campaignId],
  )
}

const claimEngagement = async (limit = 100) =>
  queryAs<Claim>(service, 'select * from public.claim_esp_engagement($1)', [limit])
const mine = (rows: Claim[], of: string[] = emails) => rows.filter((r) => of.includes(r.email))

const deliveryOf = async (email: string) =>
  (
    await (
      await testDb()
    ).query<{
      id: string
      engaged: boolean | null
      opens: number | null
      clicks: number | null
      checked: boolean
    }>(
      `select d.id, d.engaged, d.opens, d.clicks, d.engagement_checked_at is not null as checked
       from public.esp_deliveries d join public.newsletter_subscriptions s on s.id = d.subscription_id where s.email = $1`,
      [email],
    )
  ).rows[0]!

/** Moves the delivery and the last read `hours` into the past. */
const age = async (email: string, hours: number) =>
  (await testDb()).query(
    `update public.esp_deliveries d set delivered_at = d.delivered_at - make_interval(hours => $2),
       engagement_checked_at = d.engagement_checked_at - make_interval(hours => $2)
     from public.newsletter_subscriptions s where s.id = d.subscription_id and s.email = $1`,
    [email, hours],
  )

const finish = (id: string, args: string, params: unknown[] = []) =>
  queryAs<{ r: string }>(service, `select public.finish_esp_engagement($1, ${args}) as r`, [id, ...params]).then(
    (rows) => rows[0]!.r,
  )

beforeAll(async () => {
  m = await createMarket({ deposit: 200, price: 5, budget: 100 })
  rival = await createUser('advertiser')
  await queryAs(
    m.advertiser.actor,
    "select public.save_esp_connection($1, 'mailerlite', $2, '100000000000000001', 'Group')",
    [m.campaignId, KEY],
  )
  for (let i = 0; i < 3; i++) emails.push(await confirmed(m))
  emails.push(await confirmed(m, false))
  await deliverAll(m.campaignId)
})

describe('reading engagement back', () => {
  it('is due 6 hours after the delivery, once per claim, with the key', async () => {
    expect(mine(await claimEngagement())).toEqual([])
    for (const e of emails) await age(e, 7)
    const claimed = mine(await claimEngagement())
    expect(claimed.map((r) => r.email).sort()).toEqual([...emails].sort())
    expect(claimed[0]).toMatchObject({ provider: 'mailerlite', target_id: '100000000000000001', api_key: KEY })
    // Claimed is claimed: a concurrent run gets none of them.
    expect(mine(await claimEngagement())).toEqual([])
  })

  it('keeps what the provider says: engaged stays engaged, counts never go down; then waits 6 hours', async () => {
    const [a, b, c, direct] = await Promise.all(emails.map(deliveryOf))
    expect(await finish(a!.id, 'true, 3, 1')).toBe('read')
    expect(await finish(b!.id, 'false, 0, 0')).toBe('read')
    // beehiiv and Mailchimp report rates only: no counts.
    expect(await finish(direct!.id, 'true')).toBe('read')
    expect(await deliveryOf(emails[0]!)).toMatchObject({ engaged: true, opens: 3, clicks: 1, checked: true })
    expect(await deliveryOf(emails[1]!)).toMatchObject({ engaged: false, opens: 0, clicks: 0, checked: true })
    expect(await deliveryOf(emails[3]!)).toMatchObject({ engaged: true, opens: null, clicks: null, checked: true })

    // A rate limit: the read waits Retry-After and the whole key pauses.
    expect(await finish(c!.id, "false, null, null, 429, 'Too many requests', 30000")).toBe('waiting')
    expect(await deliveryOf(emails[2]!)).toMatchObject({ engaged: null, checked: false })
    const db = await testDb()
    const pause = await db.query<{ s: number }>(
      `select extract(epoch from p.paused_until - now())::int as s from private.esp_key_pauses p
       join public.esp_connections c on c.key_fingerprint = p.key_fingerprint where c.campaign_id = $1`,
      [m.campaignId],
    )
    expect(pause.rows[0]!.s).toBeGreaterThanOrEqual(29)
    await db.query(
      `delete from private.esp_key_pauses p using public.esp_connections c
       where c.key_fingerprint = p.key_fingerprint and c.campaign_id = $1`,
      [m.campaignId],
    )
    // Read ones are not due again for 6 hours; the failed one not before its Retry-After.
    expect(mine(await claimEngagement())).toEqual([])
    await db.query(`update public.esp_deliveries set engagement_retry_at = now() - interval '1 second' where id = $1`, [
      c!.id,
    ])
    await age(emails[0]!, 7)
    const again = mine(await claimEngagement())
    expect(again.map((r) => r.email).sort()).toEqual([emails[0], emails[2]].sort())
    expect(await finish(a!.id, 'false, 1, 0')).toBe('read')
    expect(await deliveryOf(emails[0]!)).toMatchObject({ engaged: true, opens: 3, clicks: 1 })
    expect(await finish(c!.id, 'false, 0, 0')).toBe('read')
    // A finish for a read nobody holds changes nothing.
    expect(await finish(c!.id, 'true, 9, 9')).toBe('missing')
    expect(await deliveryOf(emails[2]!)).toMatchObject({ engaged: false, opens: 0 })
  })

  it('stops when screening ends, and reads Kit by the id it gave the subscriber (its per-subscriber stats)', async () => {
    const db = await testDb()
    await db.query(
      "update public.newsletter_subscriptions set confirmed_at = confirmed_at - interval '8 days' where email = $1",
      [emails[1]],
    )
    await age(emails[1]!, 7)
    expect(mine(await claimEngagement())).toEqual([])

    const k = await createMarket({ deposit: 200, price: 5, budget: 100 })
    await queryAs(k.advertiser.actor, "select public.save_esp_connection($1, 'kit', $2, '1001', 'Form')", [
      k.campaignId,
      `kit-${randomUUID()}`,
    ])
    const kitReader = await confirmed(k)
    await deliverAll(k.campaignId)
    await db.query(
      `update public.esp_deliveries d set remote_id = '4242' from public.newsletter_subscriptions s
       where s.id = d.subscription_id and s.email = $1`,
      [kitReader],
    )
    await age(kitReader, 7)
    const kitClaims = mine(await claimEngagement(), [kitReader])
    expect(kitClaims).toHaveLength(1)
    expect(kitClaims[0]).toMatchObject({ provider: 'kit', remote_id: '4242' })
    await finish((await deliveryOf(kitReader)).id, 'false, 0, 0')
  })

  it('spends the key’s budget: no read-back when the deliveries used the minute’s requests', async () => {
    const db = await testDb()
    const reader = await confirmed(m)
    await deliverAll(m.campaignId)
    await age(reader, 7)
    const fp = (
      await db.query<{ fp: string }>(
        'select key_fingerprint as fp from public.esp_connections where campaign_id = $1',
        [m.campaignId],
      )
    ).rows[0]!.fp
    await db.query('insert into private.esp_request_log (key_fingerprint, requests) values ($1, 120)', [fp])
    expect(mine(await claimEngagement(), [reader])).toEqual([])
    await db.query(
      "update private.esp_request_log set sent_at = sent_at - interval '61 seconds' where key_fingerprint = $1",
      [fp],
    )
    expect(mine(await claimEngagement(), [reader])).toHaveLength(1)
    const logged = await db.query<{ n: number }>(
      "select sum(requests)::int as n from private.esp_request_log where key_fingerprint = $1 and sent_at > now() - interval '60 seconds'",
      [fp],
    )
    expect(logged.rows[0]!.n).toBe(1)
    const id = (await deliveryOf(reader)).id
    await finish(id, 'false, 0, 0')
    emails.push(reader)
  })

  it('lets only the service role claim and record read-backs; the owner reads the figures on the rows', async () => {
    const { id } = await deliveryOf(emails[0]!)
    for (const actor of [m.advertiser.actor, rival.actor, anon]) {
      expect(await errorOf(actor, 'select * from public.claim_esp_engagement(1)')).toMatch(/permission denied/)
      expect(await errorOf(actor, 'select public.finish_esp_engagement($1, true)', [id])).toMatch(/permission denied/)
    }
    expect(
      await queryAs(m.advertiser.actor, 'select engaged, opens, clicks from public.esp_deliveries where id = $1', [id]),
    ).toEqual([{ engaged: true, opens: 3, clicks: 1 }])
    expect(await queryAs(rival.actor, 'select engaged from public.esp_deliveries where id = $1', [id])).toEqual([])
  })
})

describe('engagement rate per source', () => {
  it('gives the advertiser and the publisher the same rate, computed by the database', async () => {
    // Delivered through this source: emails 0, 1, 2 and the budget test's reader (the direct one has no source).
    // Read back: all four; engaged: email 0 only.
    const expected = {
      source_id: m.sourceId,
      source_name: 'Test source',
      delivered: 4,
      checked: 4,
      engaged: 1,
      engagement_rate: '25.00',
    }
    const norm = (rows: Figure[]) =>
      rows.map((r) => ({
        ...r,
        delivered: Number(r.delivered),
        checked: Number(r.checked),
        engaged: Number(r.engaged),
      }))
    const advertiser = await queryAs<Figure>(m.advertiser.actor, 'select * from public.esp_engagement_figures($1)', [
      m.campaignId,
    ])
    expect(norm(advertiser)).toEqual([expected])
    const publisher = await queryAs<Figure>(m.publisher.actor, 'select * from public.esp_engagement_figures()')
    expect(norm(publisher)).toEqual([expected])
    // By confirmation day: today's range has them all, last year's none.
    const today = new Date().toISOString().slice(0, 10)
    expect(
      norm(
        await queryAs<Figure>(m.advertiser.actor, 'select * from public.esp_engagement_figures($1, $2, $2)', [
          m.campaignId,
          today,
        ]),
      ).map((r) => r.delivered),
    ).toEqual([3])
    expect(
      await queryAs(m.advertiser.actor, "select * from public.esp_engagement_figures($1, '2020-01-01', '2020-01-31')", [
        m.campaignId,
      ]),
    ).toEqual([])
    // Not read yet: no rate rather than 0%.
    const db = await testDb()
    await db.query(
      `update public.esp_deliveries set engagement_checked_at = null, engaged = null, counted_engagement = null where campaign_id = $1`,
      [m.campaignId],
    )
    const unread = norm(
      await queryAs<Figure>(m.advertiser.actor, 'select * from public.esp_engagement_figures($1)', [m.campaignId]),
    )
    expect(unread).toEqual([{ ...expected, checked: 0, engaged: 0, engagement_rate: null }])
  })

  it('shows nobody else’s figures', async () => {
    expect(await errorOf(rival.actor, 'select * from public.esp_engagement_figures($1)', [m.campaignId])).toBe(
      'You can only see figures of your own campaigns and sources',
    )
    expect(await queryAs(rival.actor, 'select * from public.esp_engagement_figures()')).toEqual([])
    expect(await errorOf(anon, 'select * from public.esp_engagement_figures()')).toMatch(/permission denied/)
    expect(
      await errorOf(m.advertiser.actor, "select * from public.esp_engagement_figures($1, '2026-01-02', '2026-01-01')", [
        m.campaignId,
      ]),
    ).toBe('The start date must be on or before the end date')
  })

  it('schedules the read-back job', async () => {
    const db = await testDb()
    const jobs = await db.query("select schedule, command from cron.job where jobname = 'read-esp-engagement'")
    expect(jobs.rows).toEqual([{ schedule: '*/10 * * * *', command: 'select private.dispatch_esp_engagement()' }])
  })
})
