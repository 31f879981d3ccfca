// The page view's (campaign, source) counters off the visitor's transaction (issue 27): record_campaign_page_view
// appends to private.pair_day_queue only; drain_click_queue adds the queued changes to campaign_source_stats,
// campaign_source_daily_stats and not_counted_daily, each once, on the day the change was queued for.
import { randomUUID } from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { anon, as, drainClicks, queryAs, service, testDb } from './helpers/db'
import { ageSubscription, clickSource, confirm, createMarket, newVisitor, subscribe } from './helpers/market'

const view = (clickId: string, campaignId: string) =>
  queryAs(anon, 'select public.record_campaign_page_view($1, $2)', [clickId, campaignId])

type Pair = { campaign_id: string; views: number; clicks: number }

/** What campaign_source_stats keeps for the source's pairs. */
async function kept(sourceId: string): Promise<Pair[]> {
  const db = await testDb()
  const { rows } = await db.query<Pair>(
    `select campaign_id, total_views as views, total_clicks as clicks from public.campaign_source_stats
     where audience_source_id = $1 order by campaign_id`,
    [sourceId],
  )
  return rows
}

/** campaign_source_daily_stats summed over its days. */
async function keptDaily(sourceId: string): Promise<Pair[]> {
  const db = await testDb()
  const { rows } = await db.query<Pair>(
    `select campaign_id, sum(views)::int as views, sum(clicks)::int as clicks from public.campaign_source_daily_stats
     where audience_source_id = $1 group by campaign_id order by campaign_id`,
    [sourceId],
  )
  return rows
}

/** Counting the clicks themselves (PRODUCT "view", "click"): a counted click's first view of a campaign, and its
 * attribution to the campaign (a view or a subscription), once per pair. */
async function counted(sourceId: string): Promise<Pair[]> {
  const db = await testDb()
  const { rows } = await db.query<Pair>(
    `select c.id as campaign_id,
       count(*) filter (where c.id = any (l.viewed_campaign_ids))::int as views,
       count(*) filter (where c.id = any (l.attributed_campaign_ids))::int as clicks
     from public.link_clicks l join public.campaigns c on c.id = any (l.attributed_campaign_ids)
     where l.audience_source_id = $1 and l.counted group by c.id order by c.id`,
    [sourceId],
  )
  return rows
}

type Reason = { campaign_id: string; reason: string; day: string; total: number }

async function keptReasons(sourceId: string): Promise<Reason[]> {
  const db = await testDb()
  const { rows } = await db.query<Reason>(
    `select campaign_id, reason, day::text, total from public.not_counted_daily
     where kind = 'click' and audience_source_id = $1 and campaign_id is not null and total <> 0
     order by campaign_id, reason, day`,
    [sourceId],
  )
  return rows
}

/** Counting the not-counted clicks: once per campaign they were attributed to, on the click's own UTC day. */
async function countedReasons(sourceId: string): Promise<Reason[]> {
  const db = await testDb()
  const { rows } = await db.query<Reason>(
    `select c.campaign_id, l.not_counted_reason as reason, private.utc_day(l.created_at)::text as day, count(*)::int as total
     from public.link_clicks l cross join lateral unnest(l.attributed_campaign_ids) as c(campaign_id)
     where l.audience_source_id = $1 and not l.counted group by 1, 2, 3 order by 1, 2, 3`,
    [sourceId],
  )
  return rows
}

async function queuedFor(campaignIds: string[]) {
  const db = await testDb()
  const { rows } = await db.query<{ n: number }>(
    'select count(*)::int as n from private.pair_day_queue where campaign_id = any ($1::uuid[])',
    [campaignIds],
  )
  return rows[0]!.n
}

const botVisitor = () => ({
  ip: newVisitor().ip,
  userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
})

describe("the page view's (campaign, source) counters, kept by drain-click-queue", () => {
  it('a page view writes no counter row, only the queue', async () => {
    const m = await createMarket()
    const other = await createMarket()
    const click = await clickSource(m.sourceId)
    const botClick = await clickSource(m.sourceId, botVisitor())
    await view(click, m.campaignId)
    await view(click, m.campaignId)
    await view(click, other.campaignId)
    await view(botClick, m.campaignId)
    const db = await testDb()
    // The click's own row has the views (that is the visitor's row, no one else's).
    const row = await db.query<{ page_views: number; unique_views: number }>(
      'select page_views, unique_views from public.link_clicks where id = $1',
      [click],
    )
    expect(row.rows[0]).toEqual({ page_views: 3, unique_views: 2 })
    const pairs = [m.campaignId, other.campaignId]
    const counters = await db.query(
      `select 'stats' from public.campaign_source_stats where campaign_id = any ($1::uuid[])
       union all select 'daily' from public.campaign_source_daily_stats where campaign_id = any ($1::uuid[])
       union all select 'not counted' from public.not_counted_daily where campaign_id = any ($1::uuid[])
       union all select 'campaign daily' from private.campaign_daily where campaign_id = any ($1::uuid[])`,
      [pairs],
    )
    expect(counters.rows).toEqual([])
    // Two changes for the counted click's pairs (the second view of a campaign changes nothing), one not-counted.
    expect(await queuedFor(pairs)).toBe(3)
    await drainClicks()
    expect(await queuedFor(pairs)).toBe(0)
    expect(await kept(m.sourceId)).toEqual(await counted(m.sourceId))
    expect(await keptReasons(m.sourceId)).toEqual(await countedReasons(m.sourceId))
    expect(await keptReasons(m.sourceId)).toMatchObject([
      { campaign_id: m.campaignId, reason: 'bot_user_agent', total: 1 },
    ])
  })

  it("does not wait for a lock on the pair's counters that another transaction holds (PostgreSQL)", async () => {
    const db = await testDb()
    const m = await createMarket()
    await view(await clickSource(m.sourceId), m.campaignId)
    await drainClicks()
    const click = await clickSource(m.sourceId)
    const result = await db.transaction(async (tx) => {
      // Another transaction holds the pair's rows (as a page view did while it bumped them).
      await tx.query('select 1 from public.campaign_source_stats where campaign_id = $1 for update', [m.campaignId])
      await tx.query('select 1 from public.campaign_source_daily_stats where campaign_id = $1 for update', [
        m.campaignId,
      ])
      // PGlite runs one transaction at a time: the view could not run beside this one at all.
      if (db.kind !== 'postgres') return { recorded: true }
      // A hang detector only: a view that waited for those rows fails here instead of hanging the suite.
      return as(anon, async (other) => {
        await other.query("set local lock_timeout = '20s'")
        const r = await other.query<{ r: { recorded: boolean } }>(
          'select public.record_campaign_page_view($1, $2) as r',
          [click, m.campaignId],
        )
        return r.rows[0]!.r
      })
    })
    expect(result).toMatchObject({ recorded: true })
    if (db.kind !== 'postgres') await view(click, m.campaignId)
    await drainClicks()
    expect(await kept(m.sourceId)).toEqual([{ campaign_id: m.campaignId, views: 2, clicks: 2 }])
  })

  it('the drain brings the counters to exactly what counting the clicks gives; money stays in the confirmation', async () => {
    const m = await createMarket({ deposit: 100, price: 2, budget: 100 })
    const other = await createMarket()
    await drainClicks()
    const first = newVisitor()
    const a = await clickSource(m.sourceId, first)
    await view(a, m.campaignId)
    await view(a, m.campaignId)
    await view(a, other.campaignId)
    const b = await clickSource(m.sourceId)
    await view(b, other.campaignId)
    // The same visitor again within the hour: recorded, not counted (duplicate_visitor), and its views too.
    const again = await clickSource(m.sourceId, first)
    await view(again, m.campaignId)
    await view(again, other.campaignId)
    const botClick = await clickSource(m.sourceId, botVisitor())
    await view(botClick, m.campaignId)
    // A subscriber who never opened the page: the subscription attributes the click (a click, no view) and, confirmed,
    // is paid for in the confirming transaction.
    const address = `paid-${randomUUID().slice(0, 8)}@example.com`
    const { tokens } = await subscribe(address, [m.campaignId], { sourceId: m.sourceId })
    await ageSubscription(address)
    expect(await confirm(tokens[0]!, address)).toMatchObject({ counted: true })
    const db = await testDb()
    const money = async () =>
      (
        await db.query<{ conversions: number; spend: string }>(
          `select total_conversions as conversions, total_spend::text as spend from public.campaign_source_stats
           where campaign_id = $1 and audience_source_id = $2`,
          [m.campaignId, m.sourceId],
        )
      ).rows
    expect(await money()).toEqual([{ conversions: 1, spend: '2.00' }])
    // Before the drain: no view or click of these pairs is in the counters yet.
    expect(await kept(m.sourceId)).toEqual([{ campaign_id: m.campaignId, views: 0, clicks: 0 }])

    await drainClicks()
    const expected = await counted(m.sourceId)
    expect(expected).toEqual(
      [
        { campaign_id: m.campaignId, views: 1, clicks: 2 },
        { campaign_id: other.campaignId, views: 2, clicks: 2 },
      ].sort((x, y) => x.campaign_id.localeCompare(y.campaign_id)),
    )
    expect(await kept(m.sourceId)).toEqual(expected)
    expect(await keptDaily(m.sourceId)).toEqual(expected)
    expect(await keptReasons(m.sourceId)).toEqual(await countedReasons(m.sourceId))
    expect((await keptReasons(m.sourceId)).map((r) => r.total).reduce((x, y) => x + y, 0)).toBe(3)
    expect(await money()).toEqual([{ conversions: 1, spend: '2.00' }])
    // What the screens read: the same numbers, and when they were brought up to date.
    const [figure] = await queryAs<{ views: number; clicks: number; conversions: number; updated_at: string }>(
      m.advertiser.actor,
      'select views::int, clicks::int, conversions::int, updated_at from public.campaign_source_figures($1)',
      [m.campaignId],
    )
    expect(figure).toMatchObject({ views: 1, clicks: 2, conversions: 1 })
    const [fresh] = await queryAs<{ t: string }>(m.advertiser.actor, 'select public.figures_updated_at() as t')
    expect(new Date(figure!.updated_at).getTime()).toBe(new Date(fresh!.t).getTime())
  })

  it('counts a change once however often the drain runs, and a run rolled back leaves it to the next', async () => {
    const m = await createMarket()
    await drainClicks()
    for (let i = 0; i < 4; i++) await view(await clickSource(m.sourceId), m.campaignId)
    const db = await testDb()
    // A run that fails (here: rolled back) takes nothing for good.
    await db
      .transaction(async (tx) => {
        await tx.query('select public.drain_click_queue()')
        expect(
          (await tx.query('select 1 from public.campaign_source_stats where campaign_id = $1', [m.campaignId])).rows,
        ).toHaveLength(1)
        throw new Error('rolled back')
      })
      .catch((e: Error) => expect(e.message).toBe('rolled back'))
    expect(await kept(m.sourceId)).toEqual([])
    expect(await queuedFor([m.campaignId])).toBe(4)
    // Two runs at once (on PostgreSQL the second finds the first working), then a third: each change counted once.
    await Promise.all([
      queryAs(service, 'select public.drain_click_queue(1, 100)'),
      queryAs(service, 'select public.drain_click_queue(1, 100)'),
    ])
    await drainClicks()
    await drainClicks()
    expect(await queuedFor([m.campaignId])).toBe(0)
    expect(await kept(m.sourceId)).toEqual([{ campaign_id: m.campaignId, views: 4, clicks: 4 }])
    expect(await keptDaily(m.sourceId)).toEqual(await counted(m.sourceId))
  })

  it('waits for a confirmation holding its campaign before taking any aggregate row (PostgreSQL; it deadlocked)', async () => {
    const db = await testDb()
    const m = await createMarket()
    await clickSource(m.sourceId)
    await drainClicks()
    // A click and a view wait in the queues; the run will add to the source's day row and create the pair's rows
    // (whose foreign keys key-share the campaign).
    await view(await clickSource(m.sourceId), m.campaignId)
    let drained: Promise<unknown> = Promise.resolve()
    await db.transaction(async (tx) => {
      // What confirm_subscription does: the campaign `for update`, then (its triggers) the source's day row.
      await tx.query('select 1 from public.campaigns where id = $1 for update', [m.campaignId])
      if (db.kind !== 'postgres') return // PGlite runs one transaction at a time
      drained = queryAs(service, 'select public.drain_click_queue()')
      await vi.waitFor(
        async () => {
          const waiting = await db.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity
             where datname = current_database() and wait_event_type = 'Lock' and query like '%drain_click_queue%'`,
          )
          expect(waiting.rows[0]!.n).toBe(1)
        },
        { timeout: 20_000 },
      )
      // The run waits holding no aggregate row: this update does not wait for it (a deadlock fails it here).
      const updated = await tx.query(
        `update public.source_daily_stats set confirmations = confirmations
         where audience_source_id = $1 and day = private.utc_day(now())`,
        [m.sourceId],
      )
      expect(updated.affectedRows).toBe(1)
    })
    await drained
    await drainClicks()
    expect(await kept(m.sourceId)).toEqual([{ campaign_id: m.campaignId, views: 1, clicks: 1 }])
    expect(await queuedFor([m.campaignId])).toBe(0)
  })

  it('keeps a change on its own UTC day when it is drained after midnight', async () => {
    const m = await createMarket()
    await drainClicks()
    const db = await testDb()
    const [{ today, yesterday }] = (
      await db.query<{ today: string; yesterday: string }>(
        'select private.utc_day(now())::text as today, (private.utc_day(now()) - 1)::text as yesterday',
      )
    ).rows
    const late = await clickSource(m.sourceId)
    await view(late, m.campaignId)
    // That view was made at 23:59:59 UTC yesterday; the job runs after midnight.
    const moved = await db.query(
      `update private.pair_day_queue set day = $2::date,
         queued_at = ($2::date + interval '1 day' - interval '1 second')::timestamp at time zone 'UTC'
       where campaign_id = $1 and day = $3::date`,
      [m.campaignId, yesterday, today],
    )
    expect(moved.affectedRows).toBe(1)
    // And one made today.
    await view(await clickSource(m.sourceId), m.campaignId)
    await drainClicks()
    const days = await db.query<{ day: string; views: number; clicks: number }>(
      `select day::text, views, clicks from public.campaign_source_daily_stats where campaign_id = $1 order by day`,
      [m.campaignId],
    )
    expect(days.rows).toEqual([
      { day: yesterday, views: 1, clicks: 1 },
      { day: today, views: 1, clicks: 1 },
    ])
    const overview = await db.query<{ day: string; views: string }>(
      'select day::text, views::text from private.campaign_daily where campaign_id = $1 order by day',
      [m.campaignId],
    )
    expect(overview.rows).toEqual([
      { day: yesterday, views: '1' },
      { day: today, views: '1' },
    ])
    const [onYesterday] = await queryAs<{ views: number }>(
      m.advertiser.actor,
      'select views::int from public.campaign_source_figures($1, null, $2, $2)',
      [m.campaignId, yesterday],
    )
    expect(onYesterday).toMatchObject({ views: 1 })
    expect(await kept(m.sourceId)).toEqual([{ campaign_id: m.campaignId, views: 2, clicks: 2 }])
  })
})
