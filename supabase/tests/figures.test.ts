// One set of figures for every role (PRODUCT "Attribution"): the journey click → view → subscribe → confirm
// for two campaigns and two sources, through every path (a campaign page, several newsletters at once,
// a bot, a too-fast confirmation, a refund), and the advertiser's, the publisher's and the admin's figures
// asserted equal and right — all time, per day, and what did not count, by reason.
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { anon, drainClicks, errorOf, queryAs, service, type Actor } from './helpers/db'
import { actors } from './helpers/fixtures'
import {
  ageSubscription,
  clickSource,
  confirm,
  createMarket,
  newVisitor,
  subscribe,
  type Market,
} from './helpers/market'

type Figure = {
  campaign_id: string
  source_id: string
  views: string
  clicks: string
  conversions: string
  ctr: string
  spend: string
  earnings: string
}

const email = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@example.com`
const today = new Date().toISOString().slice(0, 10)

let m1: Market
let m2: Market

async function view(clickId: string, campaignId: string) {
  await queryAs(anon, 'select public.record_campaign_page_view($1, $2)', [clickId, campaignId])
}

async function figures(
  actor: Actor,
  campaignId: string | null,
  sourceId: string | null,
  range: [string, string] | null = null,
) {
  const rows = await queryAs<Figure>(
    actor,
    `select campaign_id, source_id, views::text, clicks::text, conversions::text, ctr::text, spend::text, earnings::text
     from public.campaign_source_figures($1, $2, $3, $4)`,
    [campaignId, sourceId, range?.[0] ?? null, range?.[1] ?? null],
  )
  return Object.fromEntries(rows.map((r) => [`${r.campaign_id}|${r.source_id}`, r]))
}

async function notCounted(actor: Actor, campaignId: string | null, sourceId: string | null) {
  return queryAs<{ kind: string; reason: string; label: string; total: string }>(
    actor,
    'select kind, reason, label, total::text from public.not_counted_figures($1, $2)',
    [campaignId, sourceId],
  )
}

beforeAll(async () => {
  m1 = await createMarket({ deposit: 200, price: 10, budget: 100 })
  m2 = await createMarket({ deposit: 200, price: 4, budget: 100 })

  // Visitor 1: source 1, opens campaign 1's page, subscribes to both newsletters at once, confirms both.
  const v1 = newVisitor()
  const c1 = await clickSource(m1.sourceId, v1)
  await view(c1, m1.campaignId)
  await view(c1, m1.campaignId) // the same page again: still one view for the pair
  const e1 = email('both')
  const s1 = await subscribe(e1, [m1.campaignId, m2.campaignId], { sourceId: m1.sourceId, clickId: c1, visitor: v1 })
  await ageSubscription(e1)
  await confirm(s1.tokens[0]!, e1)
  await confirm(s1.tokens[1]!, e1)
  // …and the subscriber to campaign 2 is refunded during screening (rejected as fraud).
  await queryAs(
    service,
    "select public.refund_subscription(id, 'fraud') from public.newsletter_subscriptions where email = $1 and campaign_id = $2",
    [e1, m2.campaignId],
  )

  // Visitor 2: source 2, opens campaign 2 (newsletter page), subscribes and confirms.
  const v2 = newVisitor()
  const c2 = await clickSource(m2.sourceId, v2)
  await view(c2, m2.campaignId)
  const e2 = email('two')
  const s2 = await subscribe(e2, [m2.campaignId], { sourceId: m2.sourceId, clickId: c2, visitor: v2 })
  await ageSubscription(e2)
  await confirm(s2.tokens[0]!, e2)

  // Visitor 3: source 1, opens campaign 1, leaves.
  const v3 = newVisitor()
  await view(await clickSource(m1.sourceId, v3), m1.campaignId)

  // A bot on source 2 opens campaign 2: recorded, not counted, attached to campaign 2 with its reason.
  const bot = { ip: newVisitor().ip, userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)' }
  await view(await clickSource(m2.sourceId, bot), m2.campaignId)

  // Visitor 4: source 2, subscribes to campaign 1 from the list (no page opened) and confirms too fast.
  const v4 = newVisitor()
  const e4 = email('fast')
  const s4 = await subscribe(e4, [m1.campaignId], { sourceId: m2.sourceId, visitor: v4 })
  expect(await confirm(s4.tokens[0]!, e4)).toMatchObject({
    counted: false,
    not_counted_reason: 'too_fast_confirmation',
  })
  // The click figures are brought up to date by the scheduled job.
  await drainClicks()
})

describe('the same figures for every role', () => {
  it('are right for each campaign and source, and equal for the advertiser, the publisher and the admin', async () => {
    const pair = (c: string, s: string) => `${c}|${s}`
    const expected = {
      [pair(m1.campaignId, m1.sourceId)]: {
        views: '2',
        clicks: '2',
        conversions: '1',
        ctr: '50.00',
        spend: '10.00',
        earnings: '8.00',
      },
      [pair(m2.campaignId, m1.sourceId)]: {
        views: '0',
        clicks: '1',
        conversions: '0',
        ctr: '0.00',
        spend: '0.00',
        earnings: '0.00',
      },
      [pair(m2.campaignId, m2.sourceId)]: {
        views: '1',
        clicks: '1',
        conversions: '1',
        ctr: '100.00',
        spend: '4.00',
        earnings: '3.20',
      },
      [pair(m1.campaignId, m2.sourceId)]: {
        views: '0',
        clicks: '1',
        conversions: '0',
        ctr: '0.00',
        spend: '0.00',
        earnings: '0.00',
      },
    }
    const byAdvertiser = {
      ...(await figures(m1.advertiser.actor, m1.campaignId, null)),
      ...(await figures(m2.advertiser.actor, m2.campaignId, null)),
    }
    const byPublisher = {
      ...(await figures(m1.publisher.actor, null, m1.sourceId)),
      ...(await figures(m2.publisher.actor, null, m2.sourceId)),
    }
    const byAdmin = {
      ...(await figures(actors.admin, m1.campaignId, null)),
      ...(await figures(actors.admin, m2.campaignId, null)),
    }
    const inRange = {
      ...(await figures(m1.advertiser.actor, m1.campaignId, null, [today, today])),
      ...(await figures(m2.advertiser.actor, m2.campaignId, null, [today, today])),
    }
    for (const [key, want] of Object.entries(expected)) {
      expect(byAdvertiser[key], `advertiser ${key}`).toMatchObject(want)
      expect(byPublisher[key], `publisher ${key}`).toMatchObject(want)
      expect(byAdmin[key], `admin ${key}`).toMatchObject(want)
      // The per-day aggregate sums to the same totals.
      expect(inRange[key], `range ${key}`).toMatchObject(want)
    }
    expect(Object.keys(byAdvertiser).sort()).toEqual(Object.keys(expected).sort())
  })

  it('gives a per-day series with every day of the range, and today holding the journey', async () => {
    const from = new Date(Date.now() - 6 * 86400000).toISOString().slice(0, 10)
    const rows = await queryAs<{ day: string; clicks: string; views: string; conversions: string; spend: string }>(
      m1.advertiser.actor,
      'select day::text, clicks::text, views::text, conversions::text, spend::text from public.daily_figures($1, null, $2, $3)',
      [m1.campaignId, from, today],
    )
    expect(rows).toHaveLength(7)
    expect(rows.at(-1)).toEqual({ day: today, clicks: '3', views: '2', conversions: '1', spend: '10.00' })
    expect(rows.slice(0, 6).every((r) => r.clicks === '0' && r.conversions === '0')).toBe(true)
  })

  it('explains what did not count, by reason, on both sides', async () => {
    expect(await notCounted(m2.advertiser.actor, m2.campaignId, null)).toEqual([
      { kind: 'click', reason: 'bot_user_agent', label: 'Bot or crawler', total: '1' },
      { kind: 'subscription', reason: 'refunded', label: 'Refunded during screening (fraud or dispute)', total: '1' },
    ])
    expect(await notCounted(m1.advertiser.actor, m1.campaignId, null)).toEqual([
      { kind: 'subscription', reason: 'too_fast_confirmation', label: 'Confirmed within 2 seconds', total: '1' },
    ])
    // The publisher of source 2: every click on the source, and its subscriptions on any campaign.
    expect(await notCounted(m2.publisher.actor, null, m2.sourceId)).toEqual([
      { kind: 'click', reason: 'bot_user_agent', label: 'Bot or crawler', total: '1' },
      { kind: 'subscription', reason: 'too_fast_confirmation', label: 'Confirmed within 2 seconds', total: '1' },
    ])
    // The same campaign and source seen by the advertiser, the publisher and the admin.
    for (const actor of [m2.advertiser.actor, m2.publisher.actor, actors.admin]) {
      expect(await notCounted(actor, m2.campaignId, m2.sourceId)).toEqual([
        { kind: 'click', reason: 'bot_user_agent', label: 'Bot or crawler', total: '1' },
      ])
    }
  })

  it("sums a publisher's sources: every click, counted clicks, subscriptions, confirmations, conversions, earnings", async () => {
    const rows = await queryAs(
      m1.publisher.actor,
      `select clicks::int, counted_clicks::int, subscriptions::int, confirmations::int, conversions::int, earnings::text
       from public.source_figures()`,
    )
    // Confirmed subscribers are confirmed and not refunded (issue 38): the refunded reader of m1 is not one of them.
    expect(rows).toEqual([
      { clicks: 2, counted_clicks: 2, subscriptions: 2, confirmations: 1, conversions: 1, earnings: '8.00' },
    ])
  })

  it("refuses someone else's campaign or source, and bad date ranges, with a clear message", async () => {
    const other = 'You can only see figures of your own campaigns and sources'
    expect(
      await errorOf(m2.advertiser.actor, 'select * from public.campaign_source_figures($1)', [m1.campaignId]),
    ).toBe(other)
    expect(await errorOf(m1.publisher.actor, 'select * from public.not_counted_figures(null, $1)', [m2.sourceId])).toBe(
      other,
    )
    expect(await errorOf(actors.advertiser, 'select * from public.daily_figures(null, $1)', [m1.sourceId])).toBe(other)
    expect(await errorOf(anon, 'select * from public.campaign_source_figures()')).toMatch(/permission denied/)
    // A publisher asking about a campaign sees only their own sources' rows.
    expect(Object.keys(await figures(m1.publisher.actor, m2.campaignId, null))).toEqual([
      `${m2.campaignId}|${m1.sourceId}`,
    ])
    expect(
      await errorOf(m1.advertiser.actor, "select * from public.daily_figures($1, null, '2026-02-01', '2026-01-01')", [
        m1.campaignId,
      ]),
    ).toBe('The start date must be on or before the end date')
    expect(
      await errorOf(m1.advertiser.actor, "select * from public.daily_figures($1, null, '2025-01-01', '2026-01-10')", [
        m1.campaignId,
      ]),
    ).toBe('Pick a date range of one year or less')
    expect(await errorOf(m1.advertiser.actor, "select * from public.source_figures(null, '2025-01-01')")).toBe(
      'Pick both a start and an end date',
    )
    expect(await errorOf(anon, 'select * from public.source_figures()')).toMatch(/permission denied/)
  })

  it("lists the publisher's not-counted totals per source, equal to not_counted_figures for that source", async () => {
    expect(
      await queryAs(m2.publisher.actor, 'select source_id, kind, reason, total::int from public.source_not_counted()'),
    ).toEqual([
      { source_id: m2.sourceId, kind: 'click', reason: 'bot_user_agent', total: 1 },
      { source_id: m2.sourceId, kind: 'subscription', reason: 'too_fast_confirmation', total: 1 },
    ])
  })

  it('opens analytics on the most recent active campaign', async () => {
    expect(await queryAs(m1.advertiser.actor, 'select public.my_default_campaign() as id')).toEqual([
      { id: m1.campaignId },
    ])
  })
})

describe('totals for the overviews', () => {
  it('sum the same figures in the database for the advertiser, the publisher and their campaign list', async () => {
    expect(
      await queryAs(
        m2.advertiser.actor,
        'select views::int, clicks::int, conversions::int, ctr::text, spend::text from public.figure_totals($1)',
        [m2.campaignId],
      ),
    ).toEqual([{ views: 1, clicks: 2, conversions: 1, ctr: '50.00', spend: '4.00' }])
    expect(
      await queryAs(
        m2.publisher.actor,
        'select clicks::int, counted_clicks::int, conversions::int, earnings::text from public.source_totals()',
      ),
    ).toEqual([{ clicks: 3, counted_clicks: 2, conversions: 1, earnings: '3.20' }])
    expect(
      await queryAs(
        m1.advertiser.actor,
        'select campaign_id, clicks::int, conversions::int, spend::text from public.campaign_figures($1, $1)',
        [today],
      ),
    ).toEqual([{ campaign_id: m1.campaignId, clicks: 3, conversions: 1, spend: '10.00' }])
  })
})

describe("the publisher's stats page", () => {
  it('groups the same figures per source and per campaign, with real campaign names', async () => {
    const bySource = await queryAs(
      m1.publisher.actor,
      `select id, name, clicks::int, conversions::int, ctr::text, earnings::text from public.publisher_figures('source')`,
    )
    // A source's clicks are its counted clicks (visitors 1 and 3), not the sum over its campaign pairs (3:
    // visitor 1 counts once for each of the two newsletters they opened or subscribed to).
    expect(bySource).toEqual([
      { id: m1.sourceId, name: 'Test source', clicks: 2, conversions: 1, ctr: '50.00', earnings: '8.00' },
    ])
    const [counted] = await queryAs<{ counted_clicks: number }>(
      m1.publisher.actor,
      'select counted_clicks::int from public.source_figures($1)',
      [m1.sourceId],
    )
    expect(bySource[0]!.clicks).toBe(counted!.counted_clicks)
    const byCampaign = await queryAs(
      m1.publisher.actor,
      `select id, name, clicks::int, conversions::int from public.publisher_figures('campaign')`,
    )
    expect(byCampaign).toEqual([
      { id: m1.campaignId, name: 'Test newsletter', clicks: 2, conversions: 1 },
      { id: m2.campaignId, name: 'Test newsletter', clicks: 1, conversions: 0 },
    ])
    expect(await errorOf(m1.publisher.actor, `select * from public.publisher_figures('day')`)).toBe(
      'Group figures by source or by campaign',
    )
  })
})
