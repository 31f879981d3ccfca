/**
 * Opens the backend's database and brings it up to date: PostgreSQL when a URL is given, else PGlite in
 * a folder (or in memory for tests). A new PGlite database starts from the initdb snapshot. `reset`
 * starts over: the folder is deleted, or on PostgreSQL the project's schemas are dropped.
 */
import { existsSync } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { openDatabase, type Db } from './database'
import { migrate, type MigrateResult } from './migrate'
import { cachedInitdbSnapshot, initdbSnapshot, migratedSnapshotFile, readSnapshot, saveMigratedSnapshot } from './snapshot'

export type BackendDbOptions = {
  dataDir?: string
  databaseUrl?: string
  reset?: boolean
  seed?: boolean
  afterBootstrap?: (db: Db) => Promise<void>
}

export type OpenedDb = { db: Db; migration: MigrateResult; fromSnapshot: boolean }

export async function openBackendDb(opts: BackendDbOptions): Promise<OpenedDb> {
  let db: Db
  if (opts.databaseUrl) {
    db = await openDatabase({ databaseUrl: opts.databaseUrl })
    if (opts.reset) await dropProjectSchemas(db)
  } else {
    if (opts.reset && opts.dataDir) await rm(opts.dataDir, { recursive: true, force: true })
    const fresh = !opts.dataDir || !existsSync(opts.dataDir)
    if (fresh) return openFreshPglite(opts)
    db = await openDatabase({ dataDir: opts.dataDir })
  }
  try {
    const migration = await migrate(db, { seed: opts.seed ?? true, afterBootstrap: opts.afterBootstrap })
    return { db, migration, fromSnapshot: false }
  } catch (error) {
    await db.close().catch(() => {})
    throw error
  }
}

/**
 * A new PGlite database: from the cached migrated dump when the sources have not changed since it was
 * made (≈1 s), else migrated here and dumped for next time. With a folder, the dump is written after this
 * returns, while the backend already serves (PGlite runs one thing at a time: requests queue behind it).
 * On a fresh clone there is no dump of any kind yet: the database is created in its folder directly
 * (initdb), not from an initdb dump made first and loaded again, which costs as long again.
 */
async function openFreshPglite(opts: BackendDbOptions): Promise<OpenedDb> {
  const seed = opts.seed ?? true
  const cacheFile = await migratedSnapshotFile(seed)
  const cached = await readSnapshot(cacheFile)
  const initdb = cached ? null : await cachedInitdbSnapshot()
  if (opts.dataDir) await mkdir(path.dirname(opts.dataDir), { recursive: true })
  const db = await openDatabase({ dataDir: opts.dataDir, loadDataDir: cached ?? initdb ?? (opts.dataDir ? undefined : await initdbSnapshot()) })
  try {
    const migration = await migrate(db, { seed, afterBootstrap: opts.afterBootstrap })
    if (!cached && db.dumpDataDir) {
      const saving = db.dumpDataDir().then((blob) => saveMigratedSnapshot(cacheFile, blob))
      // A backend with a folder (npm run dev) is ready before the dump is written; an in-memory one (tests)
      // may be closed at once, so it waits for it.
      if (opts.dataDir) void saving.catch((error: unknown) => console.error('[backend] could not cache the migrated database:', error))
      else await saving
    }
    return { db, migration: cached ? { applied: [], seeded: seed } : migration, fromSnapshot: cached !== null }
  } catch (error) {
    await db.close().catch(() => {})
    throw error
  }
}

async function dropProjectSchemas(db: Db) {
  await db.exec(`
    drop schema if exists public cascade;
    drop schema if exists auth cascade;
    drop schema if exists supabase_migrations cascade;
    drop schema if exists private cascade;
    drop schema if exists cron cascade;
    drop schema if exists net cascade;
    drop schema if exists vault cascade;
    create schema public;
  `)
}
