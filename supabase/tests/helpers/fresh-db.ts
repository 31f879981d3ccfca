/**
 * A database of its own, migrated without the seed (the schema alone), for the tests that compare schemas:
 * an in-memory PGlite, or — when TEST_DATABASE_URL names a PostgreSQL server — a new database in that server.
 * `dispose` closes it (and drops the PostgreSQL database), so it does not stay beside the shared test database.
 */
import pg from 'pg'
import { openDatabase, type Db } from '../../../embedded-backend/db/database'
import { migrate } from '../../../embedded-backend/db/migrate'
import { openBackendDb } from '../../../embedded-backend/db/open-backend-db'
import { initdbSnapshot } from '../../../embedded-backend/db/snapshot'
import { ensureAuthSchema } from '../../../embedded-backend/auth/schema'

export type FreshDb = { db: Db; engine: 'pglite' | 'postgres'; dispose(): Promise<void> }

/**
 * The default privileges hosted Supabase set for new objects until 2026 (now off: bootstrap.sql). Only for building
 * history written under them, such as the baseline that schema.test.ts compares with the catalog captured then.
 */
const LEGACY_DEFAULT_PRIVILEGES = `
  alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
  alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
  alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;`

export async function freshDb({
  migrationsDir,
  serverUrl = process.env.TEST_DATABASE_URL,
  legacyDefaultPrivileges = false,
}: { migrationsDir?: string; serverUrl?: string; legacyDefaultPrivileges?: boolean } = {}): Promise<FreshDb> {
  const afterBootstrap = ensureAuthSchema
  // As the role that applies the migrations (postgres), whose objects the defaults were for.
  const beforeMigrations = legacyDefaultPrivileges ? (db: Db) => db.exec(LEGACY_DEFAULT_PRIVILEGES) : undefined
  if (!serverUrl && !migrationsDir && !legacyDefaultPrivileges) {
    // From the cached dump of the same migrations when there is one (what `npm run db:types` reads too).
    const { db } = await openBackendDb({ seed: false, afterBootstrap: ensureAuthSchema })
    return { db, engine: 'pglite', dispose: () => db.close() }
  }
  if (!serverUrl) {
    // From the initdb dump (≈1 CPU-second to load) rather than a real initdb (3.5–4): the same directory, as initdb
    // is deterministic for one PGlite version; embedded-backend/db/db-startup.test.ts runs the real one.
    const db = await openDatabase({ loadDataDir: await initdbSnapshot() })
    await migrate(db, { seed: false, afterBootstrap, beforeMigrations, migrationsDir })
    return { db, engine: 'pglite', dispose: () => db.close() }
  }
  const name = `growletter_schema_${process.pid}_${Date.now()}`
  await onServer(serverUrl, (admin) => admin.query(`create database ${name}`))
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const db = await openDatabase({ databaseUrl: url.toString() })
  const dispose = async () => {
    await db.close().catch(() => {})
    await onServer(serverUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`))
  }
  try {
    await migrate(db, { seed: false, afterBootstrap, beforeMigrations, migrationsDir })
  } catch (error) {
    await dispose()
    throw error
  }
  return { db, engine: 'postgres', dispose }
}

async function onServer(url: string, fn: (client: pg.Client) => Promise<unknown>) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await fn(client)
  } finally {
    await client.end()
  }
}
