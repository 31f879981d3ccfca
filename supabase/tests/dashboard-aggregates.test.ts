// The aggregates that keep the dashboards within 50 ms at 5,000,000 clicks and 500,000 subscribers (issue 27):
// the confirmed-subscriber count per campaign (kept per statement with the subscriptions), and the publisher's
// per-campaign and per-source figures (kept by the drain-click-queue job from the (campaign, source, day) changes) —
// each equal to what counting or summing the rows themselves gives.
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { anon, drainClicks, queryAs, service, testDb, type Actor } from './helpers/db'
import { ageSubscription, clickSource, confirm, createMarket, newVisitor, subscribe } from './helpers/market'

const email = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@example.com`
const today = new Date().toISOString().slice(0, 10)

async function counts(actor: Actor, campaignId: string) {
  const db = await testDb()
  const [{ kept }] = await queryAs<{ kept: string }>(
    actor,
    'select public.campaign_subscriber_count($1)::text as kept',
    [campaignId],
  )
  const { rows } = await db.query<{ n: string }>(
    'select count(*)::text as n from public.newsletter_subscriptions where campaign_id = $1 and confirmed_at is not null',
    [campaignId],
  )
  return { kept, counted: rows[0]!.n }
}

describe('the confirmed-subscriber count', () => {
  it('follows confirmations, unconfirmations, deletions and bulk inserts, and a search still counts its matches', async () => {
    const m = await createMarket({ deposit: 100, price: 1, budget: 100 })
    const who = m.advertiser.actor
    expect(await counts(who, m.campaignId)).toEqual({ kept: '0', counted: '0' })
    const addresses = [email('one'), email('two'), email('three')]
    for (const address of addresses) {
      const { tokens } = await subscribe(address, [m.campaignId], { sourceId: m.sourceId })
      await ageSubscription(address)
      expect(await confirm(tokens[0]!, address)).toMatchObject({ result: 'confirmed' })
    }
    expect(await counts(who, m.campaignId)).toEqual({ kept: '3', counted: '3' })
    const db = await testDb()
    await db.query('update public.newsletter_subscriptions set confirmed_at = null where email = $1', [addresses[0]])
    expect(await counts(who, m.campaignId)).toEqual({ kept: '2', counted: '2' })
    await db.query(
      `insert into public.newsletter_subscriptions (campaign_id, email, status, confirmed_at)
       select $1, 'bulk' || i || '-' || $2 || '@example.com', 'confirmed', now() from generate_series(1, 5) i`,
      [m.campaignId, randomUUID().slice(0, 8)],
    )
    expect(await counts(who, m.campaignId)).toEqual({ kept: '7', counted: '7' })
    await db.query(`delete from public.newsletter_subscriptions where campaign_id = $1 and email like 'bulk%'`, [
      m.campaignId,
    ])
    expect(await counts(who, m.campaignId)).toEqual({ kept: '2', counted: '2' })
    const [{ n }] = await queryAs<{ n: string }>(who, 'select public.campaign_subscriber_count($1, $2)::text as n', [
      m.campaignId,
      addresses[1]!.slice(0, 12),
    ])
    expect(n).toBe('1')
  })
})

/** What publisher_figures and daily_figures showed before the aggregates: the (campaign, source, day) rows summed. */
async function summedPairs(publisherId: string) {
  const db = await testDb()
  const byCampaign = await db.query<{
    id: string
    views: string
    clicks: string
    conversions: string
    earnings: string
  }>(
    `select d.campaign_id as id, sum(d.views)::text as views, sum(d.clicks)::text as clicks,
       sum(d.conversions)::text as conversions, sum(d.earnings)::numeric(12, 2)::text as earnings
     from public.campaign_source_daily_stats d join public.audience_sources s on s.id = d.audience_source_id
     where s.publisher_id = $1 and d.day between $2::date - 29 and $2::date group by 1 order by 1`,
    [publisherId, today],
  )
  const views = await db.query<{ id: string; views: string }>(
    `select d.audience_source_id as id, sum(d.views)::text as views
     from public.campaign_source_daily_stats d join public.audience_sources s on s.id = d.audience_source_id
     where s.publisher_id = $1 and d.day between $2::date - 29 and $2::date group by 1 order by 1`,
    [publisherId, today],
  )
  return { byCampaign: byCampaign.rows, views: views.rows }
}

async function publisherSees(actor: Actor) {
  const byCampaign = await queryAs<{
    id: string
    views: string
    clicks: string
    conversions: string
    earnings: string
  }>(
    actor,
    `select id, views::text, clicks::text, conversions::text, earnings::text
     from public.publisher_figures('campaign', $1::date - 29, $1::date) order by id`,
    [today],
  )
  const views = await queryAs<{ id: string; views: string }>(
    actor,
    `select id, views::text from public.publisher_figures('source', $1::date - 29, $1::date) order by id`,
    [today],
  )
  const [day] = await queryAs<{ views: string; clicks: string; conversions: string }>(
    actor,
    `select views::text, clicks::text, conversions::text from public.daily_figures(null, null, $1, $1)`,
    [today],
  )
  return { byCampaign, views, day }
}

describe("the publisher's aggregates", () => {
  it('lag the page views by one drain-click-queue run, then equal the (campaign, source, day) rows summed', async () => {
    const m = await createMarket({ deposit: 100, price: 2, budget: 100 })
    const other = await createMarket({ deposit: 100, price: 3, budget: 100 })
    // Visitors of the publisher's one source open two advertisers' campaigns.
    await drainClicks()
    const before = await publisherSees(m.publisher.actor)

    const visitors = [newVisitor(), newVisitor()]
    for (const visitor of visitors) {
      const click = await clickSource(m.sourceId, visitor)
      await queryAs(anon, 'select public.record_campaign_page_view($1, $2)', [click, m.campaignId])
      await queryAs(anon, 'select public.record_campaign_page_view($1, $2)', [click, other.campaignId])
    }
    const address = email('paid')
    const { tokens } = await subscribe(address, [m.campaignId], { sourceId: m.sourceId })
    await ageSubscription(address)
    expect(await confirm(tokens[0]!, address)).toMatchObject({ counted: true })

    // Not yet drained: the publisher's figures are the ones of the last run.
    expect((await publisherSees(m.publisher.actor)).byCampaign).toEqual(before.byCampaign)

    await drainClicks()
    const seen = await publisherSees(m.publisher.actor)
    const summed = await summedPairs(m.publisher.id)
    expect(seen.byCampaign).toEqual(summed.byCampaign)
    expect(seen.byCampaign.map((r) => r.views)).toEqual(['2', '2'])
    expect(seen.views).toEqual(summed.views)
    expect(seen.views).toEqual([{ id: m.sourceId, views: '4' }])
    expect(seen.day).toMatchObject({ views: '4', conversions: '1' })
    // The advertiser's overview: campaign_daily, the same rows summed per campaign.
    const overview = await queryAs<{ campaign_id: string; views: string; clicks: string; spend: string }>(
      m.advertiser.actor,
      `select campaign_id, views::text, clicks::text, spend::text from public.campaign_figures($1::date - 29, $1::date)`,
      [today],
    )
    const db = await testDb()
    const pairs = await db.query<{ campaign_id: string; views: string; clicks: string; spend: string }>(
      `select c.id as campaign_id, coalesce(sum(d.views), 0)::text as views, coalesce(sum(d.clicks), 0)::text as clicks,
         coalesce(sum(d.spend), 0)::numeric(12, 2)::text as spend
       from public.campaigns c left join public.campaign_source_daily_stats d on d.campaign_id = c.id
         and d.day between $2::date - 29 and $2::date
       where c.advertiser_id = $1 group by c.id`,
      [m.advertiser.id, today],
    )
    expect(overview).toEqual(pairs.rows)
    expect(overview).toEqual([{ campaign_id: m.campaignId, views: '2', clicks: '3', spend: '2.00' }])
  })

  it('takes each queued change once when two runs overlap', async () => {
    const m = await createMarket()
    const clicks = await Promise.all([newVisitor(), newVisitor(), newVisitor()].map((v) => clickSource(m.sourceId, v)))
    for (const click of clicks)
      await queryAs(anon, 'select public.record_campaign_page_view($1, $2)', [click, m.campaignId])
    await Promise.all([
      queryAs(service, 'select public.drain_click_queue(1, 100)'),
      queryAs(service, 'select public.drain_click_queue(1, 100)'),
    ])
    const seen = await publisherSees(m.publisher.actor)
    expect(seen.byCampaign).toEqual((await summedPairs(m.publisher.id)).byCampaign)
    expect(seen.byCampaign).toMatchObject([{ id: m.campaignId, views: '3', clicks: '3' }])
    const db = await testDb()
    const left = await db.query<{ n: number }>('select count(*)::int as n from private.pair_day_queue')
    expect(left.rows[0]!.n).toBe(0)
  })
})
