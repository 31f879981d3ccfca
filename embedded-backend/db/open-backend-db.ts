/**
 * Opens the backend's database and brings it up to date: PostgreSQL when a URL is given, else PGlite in
 * a folder (or in memory for tests). A new PGlite database starts from the cached migrated dump, else
 * from the initdb template `npm install` made, else from initdb. `reset` starts over: the folder is
 * deleted, or on PostgreSQL the project's schemas are dropped.
 */
import { existsSync } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { openDatabase, type Db } from './database'
import { migrate, seedDatabase, type MigrateResult } from './migrate'
import { platformOf } from './platform'
import {
  cachedInitdbSnapshot,
  copyInitdbTemplate,
  initdbSnapshot,
  migratedSnapshotFile,
  readSnapshot,
  saveMigratedSnapshot,
} from './snapshot'

export type BackendDbOptions = {
  dataDir?: string
  databaseUrl?: string
  reset?: boolean
  seed?: boolean
  afterBootstrap?: (db: Db) => Promise<void>
  /** Where the migrated dumps are kept: supabase/.local unless a test gives a folder of its own. */
  dumpsDir?: string
}

/**
 * How a new PGlite database began: the cached migrated dump (seeded as asked), the migrated dump without the
 * seed (then seeded here), the initdb template, an initdb dump, or initdb.
 */
export type Origin = 'existing' | 'migrated-dump' | 'unseeded-dump' | 'initdb-template' | 'initdb-dump' | 'initdb'

export type OpenedDb = {
  db: Db
  migration: MigrateResult
  fromSnapshot: boolean
  origin: Origin
  /** Milliseconds per step of opening (open, migrate), for the start-up report. */
  phases: Record<string, number>
  /** Settles once the dump this new database is saving (with a folder, after it opened) is written. */
  dumpSaved?: Promise<void>
}

export async function openBackendDb(opts: BackendDbOptions): Promise<OpenedDb> {
  let db: Db
  const lap = stopwatch()
  if (opts.databaseUrl) {
    db = await openDatabase({ databaseUrl: opts.databaseUrl })
    // The auth, vault and migration schemas are the platform's: it drops them (postgres may not, as on hosted).
    if (opts.reset) await (await platformOf(db)).as('supabase_admin', dropProjectSchemas)
  } else {
    if (opts.reset && opts.dataDir) await rm(opts.dataDir, { recursive: true, force: true })
    const fresh = !opts.dataDir || !existsSync(opts.dataDir)
    if (fresh) return openFreshPglite(opts)
    db = await openDatabase({ dataDir: opts.dataDir })
  }
  const phases: Record<string, number> = { open: lap() }
  try {
    const migration = await migrate(db, { seed: opts.seed ?? true, afterBootstrap: opts.afterBootstrap })
    lap()
    return { db, migration, fromSnapshot: false, origin: 'existing', phases: { ...phases, ...migration.phases } }
  } catch (error) {
    await db.close().catch(() => {})
    throw error
  }
}

/**
 * A new PGlite database: from the cached migrated dump when the sources have not changed since it was
 * made (≈0.6 CPU-seconds in memory), else migrated here and dumped for next time. `npm install` makes both dumps (prepareMigratedDumps,
 * run by its postinstall), so the first `npm run dev` on a fresh clone loads one. A seeded database without its
 * own dump starts from the unseeded one when there is one (the test suites make it) and runs only the seed.
 * With a folder, the dump is written after this returns, while the backend already serves (PGlite runs one
 * thing at a time: requests queue behind it). Without any dump, a folder starts as a native copy of the initdb
 * template made by `npm install` (≈0.9 s with opening it, against 3.5–4 s for initdb); without that either,
 * initdb runs in the folder directly, not into a dump made first and loaded again, which costs as long again.
 */
async function openFreshPglite(opts: BackendDbOptions): Promise<OpenedDb> {
  const lap = stopwatch()
  const seed = opts.seed ?? true
  const cacheFile = await migratedSnapshotFile(seed, opts.dumpsDir)
  const cached = await readSnapshot(cacheFile)
  const unseeded = !cached && seed ? await readSnapshot(await migratedSnapshotFile(false, opts.dumpsDir)) : null
  const migrated = cached ?? unseeded
  const fromTemplate = !migrated && opts.dataDir ? await copyInitdbTemplate(opts.dataDir) : false
  const initdb = migrated || fromTemplate ? null : await cachedInitdbSnapshot()
  const origin: Origin = cached
    ? 'migrated-dump'
    : unseeded
      ? 'unseeded-dump'
      : fromTemplate
        ? 'initdb-template'
        : initdb || !opts.dataDir
          ? 'initdb-dump'
          : 'initdb'
  const phases: Record<string, number> = { prepare: lap() }
  if (opts.dataDir) await mkdir(path.dirname(opts.dataDir), { recursive: true })
  const db = await openDatabase({
    dataDir: opts.dataDir,
    loadDataDir: migrated ?? initdb ?? (opts.dataDir ? undefined : await initdbSnapshot()),
  })
  phases.open = lap()
  try {
    // On the unseeded dump nothing is pending: migrate only checks it, and the seed runs here.
    const migration = await migrate(db, { seed: unseeded ? false : seed, afterBootstrap: opts.afterBootstrap })
    lap()
    Object.assign(phases, migration.phases)
    if (unseeded) {
      migration.seeded = await seedDatabase(db)
      phases.seed = lap()
    }
    let dumpSaved: Promise<void> | undefined
    if (!cached && db.dumpDataDir) {
      const saving = db.dumpDataDir().then((blob) => saveMigratedSnapshot(cacheFile, blob))
      // A backend with a folder (npm run dev) is ready before the dump is written; an in-memory one (tests)
      // may be closed at once, so it waits for it. A command that ends at once (db:reset) awaits dumpSaved.
      if (opts.dataDir)
        dumpSaved = saving.catch((error: unknown) =>
          console.error('[backend] could not cache the migrated database:', error),
        )
      else await saving
    }
    return {
      db,
      migration: cached ? { applied: [], seeded: seed } : migration,
      fromSnapshot: migrated !== null,
      origin,
      phases,
      dumpSaved,
    }
  } catch (error) {
    await db.close().catch(() => {})
    throw error
  }
}

/**
 * What `npm install` does after the initdb template (embedded-backend/db/template.ts): the migrated database
 * without and with the seed, dumped into supabase/.local as the first start of a new database would dump them,
 * each only if missing for the current sources. The first `npm run dev` then loads a dump instead of running
 * the migrations and the seed. `afterBootstrap` is the backend's (the auth API's tables). Returns what it made.
 */
export async function prepareMigratedDumps(
  afterBootstrap: (db: Db) => Promise<void>,
  dumpsDir?: string,
): Promise<string[]> {
  const made: string[] = []
  // The seeded one first: on a fresh clone it is then built from initdb. Seeded on top of the unseeded dump (when
  // that exists already) it carries a second WAL segment, 16 MB more for every start to load.
  for (const seed of [true, false]) {
    const file = await migratedSnapshotFile(seed, dumpsDir)
    if (await readSnapshot(file)) continue
    const opened = await openFreshPglite({ seed, afterBootstrap, dumpsDir })
    await opened.db.close()
    made.push(file)
  }
  return made
}

/** Milliseconds since the previous call (or since it was made). */
function stopwatch() {
  let last = performance.now()
  return () => {
    const now = performance.now()
    const ms = now - last
    last = now
    return Math.round(ms)
  }
}

async function dropProjectSchemas(db: Db) {
  await db.exec(`
    drop schema if exists public cascade;
    drop schema if exists auth cascade;
    drop schema if exists supabase_migrations cascade;
    drop schema if exists private cascade;
    drop schema if exists partitions cascade;
    drop schema if exists cron cascade;
    drop schema if exists net cascade;
    drop schema if exists vault cascade;
    create schema public;
  `)
}
