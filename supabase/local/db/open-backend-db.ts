/**
 * Opens the backend's database and brings it up to date: PostgreSQL when a URL is given, else PGlite in
 * a folder (or in memory for tests). A new PGlite database starts from the initdb snapshot. `reset`
 * starts over: the folder is deleted, or on PostgreSQL the project's schemas are dropped.
 */
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { openDatabase, type Db } from './database'
import { migrate, type MigrateResult } from './migrate'
import { initdbSnapshot } from './snapshot'

export type BackendDbOptions = {
  dataDir?: string
  databaseUrl?: string
  reset?: boolean
  seed?: boolean
  afterBootstrap?: (db: Db) => Promise<void>
}

export async function openBackendDb(opts: BackendDbOptions): Promise<{ db: Db; migration: MigrateResult }> {
  let db: Db
  if (opts.databaseUrl) {
    db = await openDatabase({ databaseUrl: opts.databaseUrl })
    if (opts.reset) await dropProjectSchemas(db)
  } else {
    if (opts.reset && opts.dataDir) await rm(opts.dataDir, { recursive: true, force: true })
    const fresh = !opts.dataDir || !existsSync(opts.dataDir)
    db = await openDatabase({ dataDir: opts.dataDir, loadDataDir: fresh ? await initdbSnapshot() : undefined })
  }
  try {
    const migration = await migrate(db, { seed: opts.seed ?? true, afterBootstrap: opts.afterBootstrap })
    return { db, migration }
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
    create schema public;
  `)
}
