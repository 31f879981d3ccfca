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
import { migrate, type MigrateResult } from './migrate'
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
}

/** How a new PGlite database began: the cached migrated dump, the initdb template, an initdb dump, or initdb. */
export type Origin = 'existing' | 'migrated-dump' | 'initdb-template' | 'initdb-dump' | 'initdb'

export type OpenedDb = {
  db: Db
  migration: MigrateResult
  fromSnapshot: boolean
  origin: Origin
  /** Milliseconds per step of opening (open, migrate), for the start-up report. */
  phases: Record<string, number>
}

export async function openBackendDb(opts: BackendDbOptions): Promise<OpenedDb> {
  let db: Db
  const lap = stopwatch()
  if (opts.databaseUrl) {
    db = await openDatabase({ databaseUrl: opts.databaseUrl })
    if (opts.reset) await dropProjectSchemas(db)
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
 * made (≈1 s), else migrated here and dumped for next time. With a folder, the dump is written after this
 * returns, while the backend already serves (PGlite runs one thing at a time: requests queue behind it).
 * On a fresh clone there is no dump yet: a folder starts as a native copy of the initdb template made by
 * `npm install` (≈0.9 s with opening it, against 3.5–4 s for initdb); without one, initdb runs in the folder
 * directly, not into a dump made first and loaded again, which costs as long again.
 */
async function openFreshPglite(opts: BackendDbOptions): Promise<OpenedDb> {
  const lap = stopwatch()
  const seed = opts.seed ?? true
  const cacheFile = await migratedSnapshotFile(seed)
  const cached = await readSnapshot(cacheFile)
  const fromTemplate = !cached && opts.dataDir ? await copyInitdbTemplate(opts.dataDir) : false
  const initdb = cached || fromTemplate ? null : await cachedInitdbSnapshot()
  const origin: Origin = cached
    ? 'migrated-dump'
    : fromTemplate
      ? 'initdb-template'
      : initdb || !opts.dataDir
        ? 'initdb-dump'
        : 'initdb'
  const phases: Record<string, number> = { prepare: lap() }
  if (opts.dataDir) await mkdir(path.dirname(opts.dataDir), { recursive: true })
  const db = await openDatabase({
    dataDir: opts.dataDir,
    loadDataDir: cached ?? initdb ?? (opts.dataDir ? undefined : await initdbSnapshot()),
  })
  phases.open = lap()
  try {
    const migration = await migrate(db, { seed, afterBootstrap: opts.afterBootstrap })
    lap()
    Object.assign(phases, migration.phases)
    if (!cached && db.dumpDataDir) {
      const saving = db.dumpDataDir().then((blob) => saveMigratedSnapshot(cacheFile, blob))
      // A backend with a folder (npm run dev) is ready before the dump is written; an in-memory one (tests)
      // may be closed at once, so it waits for it.
      if (opts.dataDir)
        void saving.catch((error: unknown) => console.error('[backend] could not cache the migrated database:', error))
      else await saving
    }
    return {
      db,
      migration: cached ? { applied: [], seeded: seed } : migration,
      fromSnapshot: cached !== null,
      origin,
      phases,
    }
  } catch (error) {
    await db.close().catch(() => {})
    throw error
  }
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
