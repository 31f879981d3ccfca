// The RLS matrix: every table × {anon, advertiser, another advertiser, publisher, admin, service role}
// × {select, insert, update, delete}, each case asserted allowed or denied. "Allowed" means the statement
// reached the target row (select returned it; insert/update/delete affected one row); "denied" means it
// failed or affected nothing. Every attempt is rolled back.
import { beforeAll, describe, expect, it } from 'vitest'
import { anon, testDb } from './helpers/db'
import { actors, attempt, ids } from './helpers/fixtures'
import { actorIds, actorOf, cases, ctx, loadTargets, names, type Op } from './helpers/rls-cases'

beforeAll(loadTargets)

describe('RLS matrix', () => {
  it('covers every public table with all four operations', async () => {
    const db = await testDb()
    const tables = (
      await db.query<{ relname: string }>(
        `select relname from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'p') order by 1`,
      )
    ).rows.map((r) => r.relname)
    for (const table of tables) {
      for (const op of ['select', 'insert', 'update', 'delete'] as Op[]) {
        expect(
          cases.some((c) => c.table === table && c.op === op),
          `${table} ${op}`,
        ).toBe(true)
      }
    }
  })

  for (const c of cases) {
    for (const name of names) {
      const expected = c.allowed.includes(name)
      it(`${c.table} ${c.op} by ${name} is ${expected ? 'allowed' : 'denied'} (${c.sql(ctx, null)[0].slice(0, 40)}…)`, async () => {
        const [sql, params] = c.sql(ctx, actorIds[name])
        const result = await attempt(actorOf[name], sql, params)
        const reached = result.ok && (c.op === 'select' ? result.rows.length === 1 : result.affected === 1)
        expect(reached, result.error ?? `${result.affected} rows`).toBe(expected)
      })
    }
  }
})

describe('column privacy', () => {
  it('hides every email in profiles from visitors and signed-in users', async () => {
    for (const actor of [anon, actors.advertiser, actors.admin]) {
      const result = await attempt(actor, 'select email from public.profiles where id = $1', [ids.advertiser])
      expect(result.error).toMatch(/permission denied/)
    }
  })

  it('lets a visitor embed the advertiser name of an active campaign, as the SPA does', async () => {
    const result = await attempt(
      anon,
      `select c.name, p.full_name from public.campaigns c join public.profiles p on p.id = c.advertiser_id where c.id = $1`,
      [ids.campaignActive],
    )
    expect(result.rows).toEqual([{ name: 'The Frontend Brief', full_name: 'Ada Advertiser' }])
  })
})
