// The schema read in one place (docs/decisions.md): the baseline migrations build what the 38 migrations before
// them built, but for the intended changes of helpers/squash-changes.ts, and supabase/schemas/ is what the
// current migrations build. Both compare a database migrated without the seed, on PGlite and, when
// TEST_DATABASE_URL is set, on PostgreSQL.
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readSchemaCatalog, type SchemaCatalog } from '../../embedded-backend/db/schema-catalog'
import { generateSchemaFiles, schemasDir } from '../../embedded-backend/db/schema-files'
import { catalogDiff } from './helpers/catalog-diff'
import { freshDb, type FreshDb } from './helpers/fresh-db'
import { ADDED_FUNCTIONS, applySquashChanges, MOVED_TO_PRIVATE, REMOVED_FUNCTIONS } from './helpers/squash-changes'

let fresh: FreshDb
let catalog: SchemaCatalog
beforeAll(async () => {
  fresh = await freshDb()
  catalog = await readSchemaCatalog(fresh.db)
})
afterAll(async () => {
  await fresh?.dispose()
})

const signature = (f: { schema: string; signature: string }) => `${f.schema}.${f.signature}`

/** The last migration of the baseline that replaced the 38 first ones; later migrations are ordinary changes. */
const LAST_BASELINE_MIGRATION = '20260101001300_figures.sql'

/** The catalog of a database migrated with the baseline files only (the current one when nothing came after). */
async function baselineCatalog(): Promise<SchemaCatalog> {
  const migrations = path.join(import.meta.dirname, '..', 'migrations')
  const files = (await readdir(migrations)).filter((f) => f.endsWith('.sql')).sort()
  if (files.at(-1) === LAST_BASELINE_MIGRATION) return catalog
  const dir = await mkdtemp(path.join(os.tmpdir(), 'growletter-baseline-'))
  try {
    for (const file of files.filter((f) => f <= LAST_BASELINE_MIGRATION))
      await copyFile(path.join(migrations, file), path.join(dir, file))
    // Built as it was written and captured: under the default privileges the platform still set then.
    const baseline = await freshDb({ migrationsDir: dir, legacyDefaultPrivileges: true })
    try {
      return await readSchemaCatalog(baseline.db)
    } finally {
      await baseline.dispose()
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

describe('the baseline migrations', () => {
  it('build the schema the 38 migrations before them built, but for the intended changes', async () => {
    // Captured from the 38 migrations (scripts/schema-catalog.ts) on each engine before they were squashed.
    const fixture = path.join(import.meta.dirname, 'fixtures', `pre-squash-catalog.${fresh.engine}.json`)
    const before = JSON.parse(await readFile(fixture, 'utf8')) as SchemaCatalog
    // The baseline alone: migrations written after the squash change the schema on purpose.
    const catalog = await baselineCatalog()
    const functions = catalog.functions.map(signature)
    expect(functions).toEqual(expect.arrayContaining(ADDED_FUNCTIONS))
    expect(functions.filter((f) => REMOVED_FUNCTIONS.includes(f))).toEqual([])
    const after = { ...catalog, functions: catalog.functions.filter((f) => !ADDED_FUNCTIONS.includes(signature(f))) }
    expect(catalogDiff(applySquashChanges(before), after)).toEqual([])
  })

  it('keep the moved helpers out of reach of the API roles', async () => {
    const { rows } = await fresh.db.query<{ name: string; schema: string; reachable: boolean }>(
      `select p.proname as name, p.pronamespace::regnamespace::text as schema,
         has_function_privilege('anon', p.oid, 'execute') or has_function_privilege('authenticated', p.oid, 'execute') as reachable
       from pg_proc p where p.proname = any($1::text[])`,
      [[...MOVED_TO_PRIVATE]],
    )
    expect(rows.map((r) => `${r.schema}.${r.name}`).sort()).toEqual(MOVED_TO_PRIVATE.map((n) => `private.${n}`))
    expect(rows.filter((r) => r.reachable)).toEqual([])
  })
})

describe('supabase/schemas', () => {
  it('lists under each table every trigger on it, in the order PostgreSQL fires them', async () => {
    // The order from the catalog itself: before statement, before row, after row, after statement; by name within.
    const { rows } = await fresh.db.query<{ tbl: string; name: string; stage: number }>(
      `select c.relnamespace::regnamespace::text || '.' || c.relname as tbl, t.tgname as name,
         case when t.tgtype & 2 = 2 then (case when t.tgtype & 1 = 1 then 1 else 0 end)
              else (case when t.tgtype & 1 = 1 then 2 else 3 end) end as stage
       from pg_trigger t join pg_class c on c.oid = t.tgrelid
       where not t.tgisinternal and c.relnamespace::regnamespace::text in ('public', 'private') and c.relispartition = false`,
    )
    const expected = new Map<string, string[]>()
    rows
      .sort((a, b) => a.stage - b.stage || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .forEach((r) => expected.set(r.tbl, [...(expected.get(r.tbl) ?? []), r.name]))
    const listed = new Map<string, string[]>()
    for (const sql of (await generateSchemaFiles(fresh.db)).values()) {
      for (const block of sql.split(/^-- Every trigger on /m).slice(1)) {
        const table = block.slice(0, block.indexOf(','))
        const names = [...block.matchAll(/^-- {5}(\S+): on /gm)].map((m) => m[1]!)
        expect(listed.has(table), `${table} is listed twice`).toBe(false)
        listed.set(table, names)
      }
    }
    expect(expected.size).toBeGreaterThan(10)
    expect(Object.fromEntries(listed)).toEqual(Object.fromEntries(expected))
  })

  it('is what the current migrations build (run `npm run db:types` when this fails)', async () => {
    const generated = await generateSchemaFiles(fresh.db)
    const committed = (await readdir(schemasDir).catch(() => [] as string[])).filter((f) => f.endsWith('.sql')).sort()
    expect(committed, 'supabase/schemas holds other files than npm run db:types writes: run it').toEqual(
      [...generated.keys()].sort(),
    )
    if (fresh.engine === 'pglite') {
      // npm run db:types renders on PGlite: the text must be the same.
      for (const [name, sql] of generated) {
        const text = await readFile(path.join(schemasDir, name), 'utf8')
        expect(text === sql, `supabase/schemas/${name} is stale: run \`npm run db:types\` and commit the result`).toBe(
          true,
        )
      }
    } else {
      // PostgreSQL 15 has no `maintain` privilege, so it cannot tell `revoke all` from revoking each privilege and
      // words one table's grants differently: here the files run as migrations must build the same catalog.
      const dir = await mkdtemp(path.join(os.tmpdir(), 'growletter-schemas-'))
      try {
        for (const [i, name] of committed.entries()) {
          await copyFile(
            path.join(schemasDir, name),
            path.join(dir, `20260101${String(i + 1).padStart(4, '0')}00_${name.slice(3)}`),
          )
        }
        const fromSnapshot = await freshDb({ migrationsDir: dir })
        try {
          const diff = catalogDiff(catalog, await readSchemaCatalog(fromSnapshot.db))
          expect(diff, 'supabase/schemas is stale: run `npm run db:types` and commit the result').toEqual([])
        } finally {
          await fromSnapshot.dispose()
        }
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    }
  })
})
