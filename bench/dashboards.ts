/**
 * Dashboard budgets (ARCHITECTURE "Budgets": every figure from an index or a maintained aggregate in ≤ 50 ms at
 * 5,000,000 clicks and 500,000 subscribers). Seeds, in the database with set-based inserts (generate_series), one
 * advertiser's 20 campaigns — one of them with 500,000 confirmed subscribers (and 10,000 pending) — and one
 * publisher's 1,000 sources with 5,000,000 clicks over 90 days (15% not counted, for three reasons), through the real
 * triggers and the drain-click-queue job that keep the aggregates, and the (campaign, source, day) rows those clicks
 * reached (about 430,000); then times each function the advertiser's, the publisher's and the admin's screens call,
 * as that role: p50 and p95 over 20 calls after 5 warm-up calls. BENCH_CLICKS / BENCH_SUBSCRIBERS seed less for a
 * quick look. PostgreSQL via scripts/local-postgres.ts (or BENCH_DATABASE_URL). Never fails on timing.
 */
import pg from 'pg'
import { openDatabase, withRequestContext, type Db } from '../embedded-backend/db/database'
import { migrate } from '../embedded-backend/db/migrate'
import { ensureAuthSchema } from '../embedded-backend/auth/schema'
import { startLocalPostgres } from '../scripts/local-postgres'
import { machineLoad } from './machine'

const BUDGET_MS = 50
const CLICKS = Number(process.env.BENCH_CLICKS ?? 5_000_000)
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 500_000)
const BATCH = 500_000
const ADVERTISER = '00000000-0000-4000-b000-000000000001'
const PUBLISHER = '00000000-0000-4000-b000-000000000002'
const ADMIN = '00000000-0000-4000-b000-000000000003'
// Each bench user has a live session (auth.sessions), as a signed-in browser has: money and admin figures refuse
// a token whose session has ended (private.require_live_session).
const session = (user: string) => user.replace('-b000-', '-c000-')
const CAMPAIGN = '00000000-0000-4000-b000-00000000c001'

const ms = (ns: bigint) => Number(ns) / 1e6
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN

async function seed(db: Db) {
  const started = process.hrtime.bigint()
  await db.exec(`
    insert into auth.users (id, email, raw_user_meta_data) values
      ('${ADVERTISER}', 'bench-advertiser@bench.test', '{"user_type":"advertiser"}'),
      ('${PUBLISHER}', 'bench-publisher@bench.test', '{"user_type":"publisher"}'),
      ('${ADMIN}', 'bench-admin@bench.test', '{"user_type":"advertiser"}');
    update public.profiles set user_type = 'admin' where id = '${ADMIN}';
    insert into auth.sessions (id, user_id, aal) values
      ('${session(ADVERTISER)}', '${ADVERTISER}', 'aal1'), ('${session(PUBLISHER)}', '${PUBLISHER}', 'aal1'),
      ('${session(ADMIN)}', '${ADMIN}', 'aal2');
    select public.credit_deposit('${ADVERTISER}', 10000, 'bench-deposit-' || i) from generate_series(1, 60) i;
    insert into public.audience_sources (publisher_id, name, platform, category, status, unified_code, created_at)
      select '${PUBLISHER}', 'Source ' || i, 'newsletter', 'technology', 'approved', 'bench-' || i, now() - (i || ' minutes')::interval
      from generate_series(1, 1000) i;
    insert into public.campaigns (id, advertiser_id, name, price_per_subscriber, budget_total, status)
      values ('${CAMPAIGN}', '${ADVERTISER}', 'Bench newsletter', 1, 500000, 'active');
    insert into public.campaigns (advertiser_id, name, price_per_subscriber, budget_total, status)
      select '${ADVERTISER}', 'Other newsletter ' || i, 1, 1000, 'active' from generate_series(1, 19) i;
    create temporary table bench_sources as select id, row_number() over (order by id) as n from public.audience_sources;
  `)
  // The clicks over 90 days, in batches: 85% counted, the rest duplicate visitors, bots and rate-limited addresses.
  // Each insert statement queues its clicks (link_clicks_daily); the job adds the queue to the aggregates.
  for (let from = 1; from <= CLICKS; from += BATCH) {
    await db.exec(`
      insert into public.link_clicks (audience_source_id, counted, not_counted_reason, visitor_hash, created_at)
        select s.id, r.reason is null, r.reason, md5(i::text),
          now() - (((i / 1000) % 90) || ' days')::interval - ((i % 1440) || ' minutes')::interval
        from generate_series(${from}, ${Math.min(CLICKS, from + BATCH - 1)}) i
        join bench_sources s on s.n = 1 + i % 1000
        cross join lateral (select case i % 20 when 0 then 'duplicate_visitor' when 10 then 'bot_user_agent'
          when 5 then 'rate_limited' end as reason) r;`)
  }
  console.log(`  clicks inserted in ${(ms(process.hrtime.bigint() - started) / 1000).toFixed(1)} s`)
  const drainStarted = process.hrtime.bigint()
  await db.exec('select public.drain_click_queue(100000, 1000)')
  const drained = ms(process.hrtime.bigint() - drainStarted) / 1000
  // The (campaign, source) pairs those clicks reached: what record_campaign_page_view / attribute_click keep. The
  // bench campaign reached every source every day; each other campaign one source in five.
  await db.exec(`
    create temporary table bench_campaigns as
      select id, row_number() over (order by id) as n from public.campaigns where id <> '${CAMPAIGN}';
    insert into public.campaign_source_daily_stats (campaign_id, audience_source_id, day, views, clicks)
      select '${CAMPAIGN}', d.audience_source_id, d.day, d.counted_clicks, d.counted_clicks / 2
      from public.source_daily_stats d
      union all
      select c.id, d.audience_source_id, d.day, d.counted_clicks / 4, d.counted_clicks / 8
      from public.source_daily_stats d join bench_sources s on s.id = d.audience_source_id
      join bench_campaigns c on c.n % 5 = s.n % 5;
    insert into public.campaign_source_stats (campaign_id, audience_source_id, total_views, total_clicks)
      select campaign_id, audience_source_id, sum(views), sum(clicks)
      from public.campaign_source_daily_stats group by campaign_id, audience_source_id;
  `)
  // The confirmed subscribers (every tenth not counted) and 10,000 pending, through the subscription triggers.
  await db.exec(`
    insert into public.newsletter_subscriptions (campaign_id, email, status, confirmed_at, audience_source_id, counted,
        not_counted_reason, price, created_at)
      select '${CAMPAIGN}', 'reader' || i || '@example.com', 'confirmed', now() - (((i / 1000) % 90) || ' days')::interval,
        s.id, i % 10 <> 0, case when i % 10 = 0 then 'duplicate_email' end, case when i % 10 <> 0 then 1 end,
        now() - (((i / 1000) % 90) || ' days')::interval - interval '1 hour'
      from generate_series(1, ${SUBSCRIBERS}) i join bench_sources s on s.n = 1 + i % 1000;
    insert into public.newsletter_subscriptions (campaign_id, email, status, audience_source_id, created_at)
      select '${CAMPAIGN}', 'pending' || i || '@example.com', 'pending', s.id, now()
      from generate_series(1, 10000) i join bench_sources s on s.n = 1 + i % 1000;
    select public.refresh_source_quality();
  `)
  await settle(db)
  const counts = await db.query<{ pairs: number; days: number; reasons: number }>(
    `select (select count(*)::int from public.campaign_source_daily_stats) as pairs,
       (select count(*)::int from public.source_daily_stats) as days, (select count(*)::int from public.not_counted_daily) as reasons`,
  )
  const c = counts.rows[0]!
  console.log(
    `seeded ${CLICKS.toLocaleString('en')} clicks (drained into the aggregates in ${drained.toFixed(1)} s) and ` +
      `${(SUBSCRIBERS + 10_000).toLocaleString('en')} subscriptions in ${(ms(process.hrtime.bigint() - started) / 1000).toFixed(1)} s: ` +
      `${c.pairs.toLocaleString('en')} campaign × source × day rows, ${c.days.toLocaleString('en')} source × day rows, ` +
      `${c.reasons.toLocaleString('en')} not-counted rows`,
  )
}

/**
 * The aggregates as autovacuum keeps them in use. Seeding adds 90 days of clicks at once, so every drain batch updates
 * nearly every (source, day) row and leaves ~50 dead versions of each (source_daily_stats: 91,000 rows on 16,000 pages,
 * a 250 ms sequential scan); in use a drain run updates only today's rows. VACUUM runs on its own: it cannot run
 * inside the transaction a multi-statement exec opens.
 */
async function settle(db: Db) {
  await db.exec(
    'vacuum full public.source_daily_stats, public.not_counted_daily, public.campaign_source_daily_stats, public.campaign_source_stats',
  )
  await db.exec('vacuum analyze')
}

type Who = 'advertiser' | 'publisher' | 'admin' | 'anon' | 'service_role'
const contexts: Record<Who, Parameters<typeof withRequestContext>[1]> = {
  advertiser: {
    role: 'authenticated',
    claims: { sub: ADVERTISER, role: 'authenticated', aal: 'aal1', session_id: session(ADVERTISER) },
    headers: {},
  },
  publisher: {
    role: 'authenticated',
    claims: { sub: PUBLISHER, role: 'authenticated', aal: 'aal1', session_id: session(PUBLISHER) },
    headers: {},
  },
  admin: {
    role: 'authenticated',
    claims: { sub: ADMIN, role: 'authenticated', aal: 'aal2', session_id: session(ADMIN) },
    headers: {},
  },
  anon: { role: 'anon', claims: { role: 'anon' }, headers: {} },
  service_role: { role: 'service_role', claims: { role: 'service_role' }, headers: {} },
}

const from = 'current_date - 29'
const to = 'current_date'
const queries: [Who, string, string][] = [
  [
    'advertiser',
    'analytics: per source, 30 days',
    `select * from public.campaign_source_figures('${CAMPAIGN}', null, ${from}, ${to})`,
  ],
  ['advertiser', 'analytics: per source, all time', `select * from public.campaign_source_figures('${CAMPAIGN}')`],
  [
    'advertiser',
    'analytics: totals, 30 days',
    `select * from public.figure_totals('${CAMPAIGN}', null, ${from}, ${to})`,
  ],
  [
    'advertiser',
    'analytics: per day, 30 days',
    `select * from public.daily_figures('${CAMPAIGN}', null, ${from}, ${to})`,
  ],
  ['advertiser', 'analytics: not counted', `select * from public.not_counted_figures('${CAMPAIGN}')`],
  ['advertiser', 'overview: campaign figures', `select * from public.campaign_figures(${from}, ${to})`],
  ['advertiser', 'subscribers: first page', `select * from public.campaign_subscribers('${CAMPAIGN}', null, 25, 0)`],
  ['advertiser', 'subscribers: page 100', `select * from public.campaign_subscribers('${CAMPAIGN}', null, 25, 2475)`],
  ['advertiser', 'subscribers: count', `select public.campaign_subscriber_count('${CAMPAIGN}')`],
  [
    'advertiser',
    'subscribers: search',
    `select * from public.campaign_subscribers('${CAMPAIGN}', 'reader4242', 25, 0)`,
  ],
  ['advertiser', 'subscribers: search count', `select public.campaign_subscriber_count('${CAMPAIGN}', 'reader4242')`],
  [
    'advertiser',
    'export: one 1,000-row page',
    `select * from public.campaign_subscribers_export('${CAMPAIGN}', now() - interval '45 days', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 1000)`,
  ],
  ['advertiser', 'wallet: advertiser_balance', 'select * from public.advertiser_balance()'],
  ['publisher', 'stats: sources, 30 days', `select * from public.source_figures(null, ${from}, ${to})`],
  [
    'publisher',
    'overview: source totals, 7 days',
    'select * from public.source_totals(current_date - 6, current_date)',
  ],
  ['publisher', 'stats: per source', `select * from public.publisher_figures('source', ${from}, ${to})`],
  ['publisher', 'stats: per campaign', `select * from public.publisher_figures('campaign', ${from}, ${to})`],
  ['publisher', 'stats: not counted per source', `select * from public.source_not_counted(${from}, ${to})`],
  // The Sources panel asks for all time (src/features/audiences/api/source-clicks-query.ts).
  ['publisher', 'sources: not counted, all time', 'select * from public.source_not_counted()'],
  ['publisher', 'stats: per day', `select * from public.daily_figures(null, null, ${from}, ${to})`],
  [
    'admin',
    'admin: campaign per source',
    `select * from public.campaign_source_figures('${CAMPAIGN}', null, ${from}, ${to})`,
  ],
  [
    'anon',
    '/audiences by confirmation rate',
    `select id, name, quality_confirmation_rate, quality_counted_share from public.audience_sources
     where status in ('approved', 'verified', 'live') order by quality_confirmation_rate desc nulls last, created_at desc, id desc limit 24`,
  ],
]

async function time(db: Db, who: Who, sql: string) {
  const samples: number[] = []
  for (let i = 0; i < 25; i++) {
    const start = process.hrtime.bigint()
    await withRequestContext(db, contexts[who], (tx) => tx.query(sql))
    samples.push(ms(process.hrtime.bigint() - start))
  }
  return samples.slice(5).sort((a, b) => a - b)
}

export async function run() {
  const local = process.env.BENCH_DATABASE_URL ? null : startLocalPostgres(55441)
  const serverUrl = process.env.BENCH_DATABASE_URL ?? local?.url
  if (!serverUrl) return console.log('PostgreSQL is not installed: dashboard figures skipped')
  // BENCH_REUSE=<database> (with BENCH_DATABASE_URL): a database an earlier BENCH_KEEP run seeded, brought up to the
  // current migrations and timed again, without seeding for ten minutes.
  const reuse = local ? undefined : process.env.BENCH_REUSE
  const name = reuse ?? `growletter_dash_${Date.now()}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  if (!reuse) await admin.query(`create database ${name}`)
  const url = Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString()
  try {
    const db = await openDatabase({ databaseUrl: url })
    await migrate(db, { seed: false, afterBootstrap: ensureAuthSchema })
    if (reuse) {
      await db.exec('select public.drain_click_queue(100000, 1000)')
      await settle(db)
      console.log(`  reused database ${name}, migrated to the current migrations`)
    } else {
      console.log(`  seeding at: ${machineLoad()}`)
      await seed(db)
    }
    console.log(`  timing at: ${machineLoad()}`)
    let over = 0
    for (const [who, label, sql] of queries) {
      const samples = await time(db, who, sql)
      const p50 = pct(samples, 50)
      if (p50 > BUDGET_MS) over++
      console.log(
        `${label.padEnd(36)} (${who}) p50 ${p50.toFixed(2).padStart(7)} ms, p95 ${pct(samples, 95).toFixed(2).padStart(7)} ms — ${p50 <= BUDGET_MS ? 'within budget' : 'OVER BUDGET'} (≤ ${BUDGET_MS} ms)`,
      )
    }
    const job = await time(db, 'service_role', 'select public.refresh_source_quality()')
    console.log(`refresh-source-quality job (every 10 min, not a screen): p50 ${pct(job, 50).toFixed(1)} ms`)
    console.log(
      over === 0 ? `every dashboard query within ${BUDGET_MS} ms` : `${over} dashboard queries over ${BUDGET_MS} ms`,
    )
    console.log(`  at end: ${machineLoad()}`)
    await db.close()
  } finally {
    // BENCH_KEEP=1 with BENCH_DATABASE_URL leaves the seeded database to look into (EXPLAIN) afterwards.
    if ((process.env.BENCH_KEEP || reuse) && !local) console.log(`  kept database ${name}`)
    else await admin.query(`drop database if exists ${name} with (force)`).catch(() => {})
    await admin.end()
    local?.stop()
  }
}
