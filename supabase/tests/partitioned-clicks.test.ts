// link_clicks partitioned by UTC month of created_at (issue 27): the clicks already there survive the migration,
// every click finds a partition (the month's, or the default one until the month is created), the months ahead are
// created by a scheduled job, old months are detached only on demand, and the keys that used to be foreign keys
// (subscription → click) still hold.
import { randomUUID } from 'node:crypto'
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ensureAuthSchema } from '../../embedded-backend/auth/schema'
import { migrate } from '../../embedded-backend/db/migrate'
import { anon, errorOf, queryAs, service, testDb } from './helpers/db'
import { createUser } from './helpers/fixtures'
import { freshDb } from './helpers/fresh-db'
import { clickSource, createMarket, subscribe } from './helpers/market'

const MIGRATION = '20260411000100_partitioned_clicks.sql'
const migrations = path.join(import.meta.dirname, '..', 'migrations')

/** The first day of the UTC month `offset` months from now, as YYYY-MM-DD. */
const month = (offset: number) => {
  const now = new Date()
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)).toISOString().slice(0, 10)
}
/** 'April 2025', as the functions word a month. */
const inWords = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' })
const partitionOf = (day: string) => `link_clicks_${day.slice(0, 4)}_${day.slice(5, 7)}`

async function partitions() {
  const db = await testDb()
  const { rows } = await db.query<{ name: string; bound: string }>(
    `select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound from pg_inherits i
     join pg_class c on c.oid = i.inhrelid where i.inhparent = 'public.link_clicks'::regclass order by 1`,
  )
  return rows
}

/** Which partition holds each click. */
async function placeOf(ids: string[]) {
  const db = await testDb()
  const { rows } = await db.query<{ id: string; place: string }>(
    'select id, tableoid::regclass::text as place from public.link_clicks where id = any($1::uuid[])',
    [ids],
  )
  return Object.fromEntries(rows.map((r) => [r.id, r.place]))
}

async function queued(sourceId: string) {
  const db = await testDb()
  const { rows } = await db.query<{ n: number }>(
    'select count(*)::int as n from private.click_queue where audience_source_id = $1',
    [sourceId],
  )
  return rows[0]!.n
}

async function insertClick(sourceId: string, createdAt: string) {
  const db = await testDb()
  const { rows } = await db.query<{ id: string }>(
    `insert into public.link_clicks (audience_source_id, counted, visitor_hash, created_at)
     values ($1, true, $2, $3) returning id`,
    [sourceId, randomUUID(), createdAt],
  )
  return rows[0]!.id
}

describe('partitioned link_clicks', () => {
  it('is partitioned by range of created_at, keyed by (id, created_at), with this month, two ahead and a default', async () => {
    const db = await testDb()
    const key = await db.query<{ key: string; pk: string }>(
      `select pg_get_partkeydef('public.link_clicks'::regclass) as key,
         (select pg_get_constraintdef(oid) from pg_constraint where conname = 'link_clicks_pkey' and conrelid = 'public.link_clicks'::regclass) as pk`,
    )
    expect(key.rows[0]).toEqual({ key: 'RANGE (created_at)', pk: 'PRIMARY KEY (id, created_at)' })
    const names = (await partitions()).map((p) => p.name)
    expect(names).toEqual(
      expect.arrayContaining([
        partitionOf(month(0)),
        partitionOf(month(1)),
        partitionOf(month(2)),
        'link_clicks_default',
      ]),
    )
    const bound = (await partitions()).find((p) => p.name === partitionOf(month(0)))!.bound
    // UTC month bounds whatever the session's time zone.
    const lo = await db.query<{ lo: boolean; hi: boolean }>(
      `select $1::timestamptz = ($2::date::timestamp at time zone 'UTC') as lo,
              $3::timestamptz = (($2::date + interval '1 month')::timestamp at time zone 'UTC') as hi`,
      [bound.match(/FROM \('([^']+)'\)/)![1], month(0), bound.match(/TO \('([^']+)'\)/)![1]],
    )
    expect(lo.rows[0]).toEqual({ lo: true, hi: true })
  })

  it('puts a click in its month, and a click of a month without a partition in the default one', async () => {
    const m = await createMarket()
    const now = await clickSource(m.sourceId)
    const long = await insertClick(m.sourceId, `${month(-40)}T12:00:00Z`)
    expect(await placeOf([now!, long])).toEqual({
      [now!]: `partitions.${partitionOf(month(0))}`,
      [long]: 'partitions.link_clicks_default',
    })
  })

  it('creates a month once, moving its clicks out of the default partition without queueing them again', async () => {
    const m = await createMarket()
    const day = month(-41)
    const a = await insertClick(m.sourceId, `${day}T00:00:00Z`)
    const b = await insertClick(m.sourceId, `${day.slice(0, 8)}28T23:59:59Z`)
    const other = await insertClick(m.sourceId, `${month(-42)}T10:00:00Z`)
    expect(await queued(m.sourceId)).toBe(3)
    const db = await testDb()
    const made = await db.query<{ a: boolean; b: boolean }>(
      'select private.ensure_click_partition($1) as a, private.ensure_click_partition($1) as b',
      [day],
    )
    expect(made.rows[0]).toEqual({ a: true, b: false })
    expect(await placeOf([a, b, other])).toEqual({
      [a]: `partitions.${partitionOf(day)}`,
      [b]: `partitions.${partitionOf(day)}`,
      [other]: 'partitions.link_clicks_default',
    })
    expect(await queued(m.sourceId)).toBe(3)
    // The month has the table's indexes and triggers.
    const idx = await db.query<{ n: number }>(
      `select count(*)::int as n from pg_inherits i join pg_index x on x.indexrelid = i.inhrelid
       where x.indrelid = $1::regclass`,
      [`partitions.${partitionOf(day)}`],
    )
    const parentIdx = await db.query<{ n: number }>(
      "select count(*)::int as n from pg_index where indrelid = 'public.link_clicks'::regclass",
    )
    expect(idx.rows[0]!.n).toBe(parentIdx.rows[0]!.n)
  })

  it('does not queue a click again when an update moves it to another month', async () => {
    const m = await createMarket()
    const id = await clickSource(m.sourceId)
    expect(await queued(m.sourceId)).toBe(1)
    const db = await testDb()
    await db.query(`update public.link_clicks set created_at = created_at - interval '62 days' where id = $1`, [id])
    expect((await placeOf([id!]))[id!]).not.toBe(`partitions.${partitionOf(month(0))}`)
    expect(await queued(m.sourceId)).toBe(1)
  })

  it('is created ahead by the create-click-partitions job, service role only', async () => {
    const db = await testDb()
    const job = await db.query<{ schedule: string; command: string }>(
      "select schedule, command from cron.job where jobname = 'create-click-partitions'",
    )
    expect(job.rows).toEqual([{ schedule: '41 2 * * *', command: 'select public.create_click_partitions()' }])
    // A click of a month with no partition waits in the default partition until the job runs.
    const m = await createMarket()
    const stray = await insertClick(m.sourceId, `${month(-50)}T09:00:00Z`)
    const [{ n }] = await queryAs<{ n: number }>(service, 'select public.create_click_partitions(4) as n')
    expect(n).toBeGreaterThanOrEqual(3) // months 3 and 4 ahead, the stray click's month (and earlier tests' strays)
    expect((await partitions()).map((p) => p.name)).toEqual(
      expect.arrayContaining([partitionOf(month(3)), partitionOf(month(4)), partitionOf(month(-50))]),
    )
    expect(await placeOf([stray])).toEqual({ [stray]: `partitions.${partitionOf(month(-50))}` })
    const left = await db.query<{ n: number }>('select count(*)::int as n from partitions.link_clicks_default')
    expect(left.rows[0]!.n).toBe(0)
    expect(await queryAs<{ n: number }>(service, 'select public.create_click_partitions(4) as n')).toEqual([{ n: 0 }])
    expect(await errorOf(service, 'select public.create_click_partitions(25)')).toBe('Create 0 to 24 months ahead.')
    expect(await errorOf(service, 'select private.ensure_click_partition(null)')).toMatch(/permission denied/)
    const publisher = await createUser('publisher')
    for (const actor of [anon, publisher.actor]) {
      expect(await errorOf(actor, 'select public.create_click_partitions()')).toMatch(/permission denied/)
      expect(await errorOf(actor, `select public.detach_click_partition('${month(-30)}')`)).toMatch(/permission denied/)
    }
    expect(await db.query('select private.ensure_click_partition(null)').catch((e: Error) => e.message)).toBe(
      'Which month? The month is missing.',
    )
  })

  it('keeps the months out of the API roles’ reach', async () => {
    const publisher = await createUser('publisher')
    for (const actor of [anon, publisher.actor, service]) {
      expect(await errorOf(actor, 'select count(*) from partitions.link_clicks_default')).toMatch(/permission denied/)
    }
    const db = await testDb()
    const rls = await db.query<{ name: string }>(
      `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
       where i.inhparent = 'public.link_clicks'::regclass and not c.relrowsecurity`,
    )
    expect(rls.rows).toEqual([])
  })

  it('detaches a month only when it is more than 12 full months old and no open dispute needs it', async () => {
    const m = await createMarket()
    const old = month(-44)
    await insertClick(m.sourceId, `${old}T08:00:00Z`)
    const db = await testDb()
    await db.query('select private.ensure_click_partition($1)', [old])
    expect(await errorOf(service, `select public.detach_click_partition('${month(-3)}')`)).toBe(
      'Clicks are kept for 12 full months: the first month that can be detached is MONTH.'.replace(
        'MONTH',
        inWords(month(-13)),
      ),
    )
    expect(await errorOf(service, `select public.detach_click_partition(null)`)).toBe(
      'Which month? The month is missing.',
    )
    const dispute = await db.query<{ id: string }>(
      `insert into public.disputes (advertiser_id, publisher_id, audience_source_id, kind, reason)
       values ($1, $2, $3, 'source', 'These clicks look like a script to us') returning id`,
      [m.advertiser.id, m.publisher.id, m.sourceId],
    )
    expect(await errorOf(service, `select public.detach_click_partition('${old}')`)).toBe(
      'An open dispute names a source with clicks in MONTH: decide it before detaching that month.'.replace(
        'MONTH',
        inWords(old),
      ),
    )
    await db.query(`update public.disputes set status = 'rejected', decided_at = now() where id = $1`, [
      dispute.rows[0]!.id,
    ])
    const [{ t }] = await queryAs<{ t: string }>(service, 'select public.detach_click_partition($1) as t', [old])
    expect(t).toBe(`partitions.${partitionOf(old)}`)
    expect((await partitions()).map((p) => p.name)).not.toContain(partitionOf(old))
    // The month is a table of its own now, with its clicks, to export and drop.
    expect((await db.query<{ n: number }>(`select count(*)::int as n from ${t}`)).rows[0]!.n).toBe(1)
    expect(await errorOf(service, `select public.detach_click_partition('${old}')`)).toBe(
      'No clicks of MONTH are attached to link_clicks.'.replace('MONTH', inWords(old)),
    )
    await db.query(`drop table ${t}`)
  })
})

describe('the rows a click locks', () => {
  // A row another transaction key-share locked carries its xid in xmax; many lockers make PostgreSQL build a
  // multixact per locker (the hot-source slowdown of issue 27).
  const lockedByMe = `s.xmax::text = (pg_current_xact_id()::text::bigint % 4294967296)::text`

  it('locks neither its source nor a campaign: a click is inserted without one', async () => {
    const m = await createMarket()
    const db = await testDb()
    const locks = await db.transaction(async (tx) => {
      await tx.query(
        `insert into public.link_clicks (audience_source_id, counted, visitor_hash) values ($1, true, 'lock-test')`,
        [m.sourceId],
      )
      const source = await tx.query<{ locked: boolean }>(
        `select ${lockedByMe} as locked from public.audience_sources s where s.id = $1`,
        [m.sourceId],
      )
      const campaign = await tx.query<{ locked: boolean }>(
        `select ${lockedByMe} as locked from public.campaigns s where s.id = $1`,
        [m.campaignId],
      )
      return { source: source.rows[0]!.locked, campaign: campaign.rows[0]!.locked }
    })
    expect(locks).toEqual({ source: false, campaign: false })
  })

  it('key-share locks the campaign when a view is attributed (the foreign keys of the click and of the per-pair counters)', async () => {
    const m = await createMarket()
    const click = await clickSource(m.sourceId)
    const db = await testDb()
    const locked = await db.transaction(async (tx) => {
      await tx.query('select private.attribute_click($1, $2, true)', [click, m.campaignId])
      const r = await tx.query<{ locked: boolean }>(
        `select ${lockedByMe} as locked from public.campaigns s where s.id = $1`,
        [m.campaignId],
      )
      return r.rows[0]!.locked
    })
    expect(locked).toBe(true)
  })
})

describe('the key of a subscription to its click', () => {
  it('refuses a subscription that names a click that does not exist, and clears it when the click is deleted', async () => {
    const m = await createMarket()
    const { clickId } = await subscribe(`k-${randomUUID()}@example.com`, [m.campaignId], { sourceId: m.sourceId })
    const db = await testDb()
    const sub = await db.query<{ id: string }>('select id from public.newsletter_subscriptions where click_id = $1', [
      clickId,
    ])
    expect(sub.rows).toHaveLength(1)
    const missing = await db
      .query('update public.newsletter_subscriptions set click_id = $1 where id = $2', [randomUUID(), sub.rows[0]!.id])
      .catch((e: Error) => e.message)
    expect(missing).toBe('This subscription names a click that does not exist.')
    await db.query('delete from public.link_clicks where id = $1', [clickId])
    const after = await db.query<{ click_id: string | null }>(
      'select click_id from public.newsletter_subscriptions where id = $1',
      [sub.rows[0]!.id],
    )
    expect(after.rows[0]!.click_id).toBeNull()
  })

  it('finds the click of the paid-subscriber rule by its primary key in at most two months', async () => {
    const db = await testDb()
    const at = new Date().toISOString()
    const plan = await db.query<{ 'QUERY PLAN': string }>(
      `explain (costs off) select 1 from public.link_clicks l
       where l.id = '${randomUUID()}' and l.counted and l.created_at <= '${at}' and l.created_at > '${at}'::timestamptz - interval '24 hours'`,
    )
    const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n')
    const scanned = new Set(text.match(/link_clicks_(\d{4}_\d{2}|default)\b/g))
    expect(scanned.size).toBeGreaterThan(0)
    expect(scanned.size).toBeLessThanOrEqual(3) // the month, the one before near its start, and the default
    expect(text).toMatch(/Index Scan using link_clicks_\d{4}_\d{2}_pkey/)
  })
})

describe('the migration', () => {
  it('moves the clicks already in link_clicks into the partitioned table, untouched and not queued again', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'growletter-partition-'))
    const files = (await readdir(migrations)).filter((f) => f.endsWith('.sql') && f < MIGRATION)
    for (const f of files) await copyFile(path.join(migrations, f), path.join(dir, f))
    const fresh = await freshDb({ migrationsDir: dir })
    try {
      const db = fresh.db
      const user = randomUUID()
      await db.query(
        `insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, '{"user_type":"publisher"}')`,
        [user, `p-${user}@example.com`],
      )
      const advertiser = randomUUID()
      await db.query(
        `insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, '{"user_type":"advertiser"}')`,
        [advertiser, `a-${advertiser}@example.com`],
      )
      const source = (
        await db.query<{ id: string }>(
          `insert into public.audience_sources (publisher_id, name, platform, status, unified_code)
           values ($1, 'Old source', 'x', 'approved', 'old-source') returning id`,
          [user],
        )
      ).rows[0]!.id
      const campaign = (
        await db.query<{ id: string }>(
          `insert into public.campaigns (advertiser_id, name, price_per_subscriber, budget_total, status)
           values ($1, 'Old newsletter', 1, 0, 'draft') returning id`,
          [advertiser],
        )
      ).rows[0]!.id
      // Clicks over 15 months, one with a campaign and device details.
      await db.query(
        `insert into public.link_clicks (audience_source_id, counted, not_counted_reason, visitor_hash, ip, created_at,
           campaign_id, device_info, page_views)
         select $1, i % 3 <> 0, case when i % 3 = 0 then 'duplicate_visitor' end, md5(i::text), '192.0.2.' || i,
           now() - make_interval(days => i * 15), case when i = 1 then $2::uuid end, jsonb_build_object('i', i), i
         from generate_series(0, 30) i`,
        [source, campaign],
      )
      const clickId = (
        await db.query<{ id: string }>('select id from public.link_clicks where campaign_id is not null')
      ).rows[0]!.id
      await db.query(
        `insert into public.newsletter_subscriptions (campaign_id, email, audience_source_id, click_id)
         values ($1, 'old@example.com', $2, $3)`,
        [campaign, source, clickId],
      )
      const snapshot = `select id, session_id, audience_source_id, campaign_id, counted, not_counted_reason, visitor_hash, ip,
          created_at, device_info, page_views from public.link_clicks order by id`
      const before = (await db.query(snapshot)).rows
      const queue = (await db.query<{ n: number }>('select count(*)::int as n from private.click_queue')).rows[0]!.n
      expect(before).toHaveLength(31)

      await copyFile(path.join(migrations, MIGRATION), path.join(dir, MIGRATION))
      await migrate(db, { seed: false, afterBootstrap: ensureAuthSchema, migrationsDir: dir })

      expect((await db.query(snapshot)).rows).toEqual(before)
      expect((await db.query<{ n: number }>('select count(*)::int as n from private.click_queue')).rows[0]!.n).toBe(
        queue,
      )
      const placed = await db.query<{ place: string; n: number }>(
        `select tableoid::regclass::text as place, count(*)::int as n from public.link_clicks group by 1`,
      )
      // Every click in its own month (none in the default partition), 15 months or more of them.
      expect(placed.rows.find((r) => r.place === 'partitions.link_clicks_default')).toBeUndefined()
      expect(placed.rows.length).toBeGreaterThanOrEqual(15)
      const sub = await db.query<{ click_id: string }>(
        "select click_id from public.newsletter_subscriptions where email = 'old@example.com'",
      )
      expect(sub.rows[0]!.click_id).toBe(clickId)
      const fk = await db.query("select 1 from pg_constraint where conname = 'newsletter_subscriptions_click_id_fkey'")
      expect(fk.rows).toEqual([])
    } finally {
      await fresh.dispose()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
