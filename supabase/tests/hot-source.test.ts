// The hot source (issue 27): the duplicate-visitor check of track_audience_source_click is one index probe
// whatever the month's statistics say. With an index on (source, time) beside the one on (source, visitor, time),
// a plan made while the month's partition had no column statistics and a few hundred rows (a new month, before
// autovacuum analyzes it) read every click of the source in the last hour and filtered the visitor afterwards;
// PL/pgSQL kept that plan on the connection, so a hot source cost thousands of buffers per click
// (migration 20260413000100).
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { Queryable } from '../../embedded-backend/db/database'
import { BROWSER_UA, clickSource, createMarket, newVisitor } from './helpers/market'
import { anon, queryAs, testDb } from './helpers/db'

// A month no other test writes to: its partition is made (never analyzed, as create_click_partitions leaves a month
// ahead) and given 200 clicks of one source, inside a transaction that is rolled back. Fewer rows get a sequential
// scan, more get the (source, visitor) index even with the other one beside it: 200 is where the planner, with no
// statistics, costs both at one row and the narrower (source, time) index cheaper.
const MONTH = '2999-01-01'
const PARTITION = 'link_clicks_2999_01'
const rolledBack = new Error('rolled back on purpose')

/** The generic plan (the one PL/pgSQL caches) of the duplicate-visitor check on a hot source's fresh month. */
async function duplicateCheckPlan(sourceId: string, { withSourceTimeIndex = false } = {}) {
  const db = await testDb()
  let plan = ''
  const statement = `dup_check_${randomUUID().replaceAll('-', '')}`
  try {
    await db.transaction(async (tx: Queryable) => {
      if (withSourceTimeIndex)
        await tx.query(
          'create index link_clicks_source_created_idx on public.link_clicks using btree (audience_source_id, created_at desc)',
        )
      await tx.query('select private.ensure_click_partition($1)', [MONTH])
      // One hot source's clicks of different visitors, as wide as real ones.
      await tx.query(
        `insert into public.link_clicks (audience_source_id, counted, visitor_hash, ip, user_agent, browser, device_info, created_at)
         select $1, true, encode(sha256(convert_to(i::text, 'UTF8')), 'hex'), '10.0.' || (i / 256) || '.' || (i % 256),
                $2, 'Chrome', '{"browser": "Chrome"}', '2999-01-15 12:00:00+00'::timestamptz + i * interval '1 second'
         from generate_series(1, 200) i`,
        [sourceId, BROWSER_UA],
      )
      await tx.query('set local plan_cache_mode = force_generic_plan')
      // The check as track_audience_source_click words it (its now() is the third parameter here).
      await tx.query(
        `prepare ${statement}(uuid, text, timestamptz) as
         select exists (select 1 from public.link_clicks c
                        where c.audience_source_id = $1 and c.visitor_hash = $2 and c.created_at > $3 - interval '1 hour')`,
      )
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(
        `explain (costs off) execute ${statement}('${sourceId}', 'someone new', '2999-01-15 12:10:00+00')`,
      )
      plan = rows.map((r) => r['QUERY PLAN']).join('\n')
      await tx.query(`deallocate ${statement}`)
      throw rolledBack
    })
  } catch (error) {
    if (error !== rolledBack) throw error
  }
  // The lines of the fresh month's scan: its node and the conditions under it.
  const lines = plan.split('\n')
  const at = lines.findIndex((l) => l.includes(` on ${PARTITION} `))
  expect(at).toBeGreaterThanOrEqual(0)
  const depth = lines[at]!.search(/\S/)
  const rest = lines.slice(at + 1)
  const end = rest.findIndex((l) => l.search(/\S/) <= depth || l.includes('->'))
  return [lines[at]!, ...(end < 0 ? rest : rest.slice(0, end))].join('\n')
}

describe('the duplicate-visitor check on a hot source', () => {
  it('probes the (source, visitor) index, visitor included, on a month without statistics', async () => {
    const { sourceId } = await createMarket({ deposit: 0 })
    const scan = await duplicateCheckPlan(sourceId)
    expect(scan).toMatch(
      /Index (Only )?Scan using \S*audience_source_id_visitor_hash_created\S* on link_clicks_2999_01/,
    )
    expect(scan).toMatch(/Index Cond: .*visitor_hash = \$2/)
    expect(scan).not.toMatch(/Filter:/)
  })

  it('(the cause, shown) with a (source, time) index beside it, the same plan reads the source and filters the visitor', async () => {
    const { sourceId } = await createMarket({ deposit: 0 })
    const scan = await duplicateCheckPlan(sourceId, { withSourceTimeIndex: true })
    expect(scan).toMatch(/Filter: \(visitor_hash = \$2\)/)
  })

  it('no index of link_clicks leads with the source but the (source, visitor, time) one', async () => {
    const db = await testDb()
    const { rows } = await db.query<{ name: string; definition: string }>(
      `select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
       from pg_index i join pg_class c on c.oid = i.indexrelid
       where i.indrelid = 'public.link_clicks'::regclass`,
    )
    const bySource = rows.filter((r) => /\(audience_source_id[,)]/.test(r.definition))
    expect(bySource.map((r) => r.name)).toEqual(['link_clicks_source_visitor_idx'])
  })

  it('still refuses the same visitor on the same source within the hour, and counts a new one', async () => {
    const { sourceId } = await createMarket({ deposit: 0 })
    const visitor = newVisitor()
    await clickSource(sourceId, visitor)
    const again = await queryAs<{ r: { counted: boolean; not_counted_reason: string | null } }>(
      anon,
      'select public.track_audience_source_click($1, $2) as r',
      [sourceId, '{}'],
      { 'x-real-ip': visitor.ip, 'user-agent': visitor.userAgent },
    )
    expect(again[0]!.r).toMatchObject({ counted: false, not_counted_reason: 'duplicate_visitor' })
    const other = await queryAs<{ r: { counted: boolean } }>(
      anon,
      'select public.track_audience_source_click($1, $2) as r',
      [sourceId, '{}'],
      { 'x-real-ip': newVisitor().ip, 'user-agent': visitor.userAgent },
    )
    expect(other[0]!.r.counted).toBe(true)
  })
})
