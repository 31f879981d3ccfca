/**
 * The one database the db test project shares (files run one after another in one worker, isolate off):
 * an in-memory PGlite migrated with the seed, or — when TEST_DATABASE_URL names a PostgreSQL server — a
 * fresh database created in that server for this run (dropped at exit, or by the next run).
 */
import pg from 'pg'
import { openDatabase, withRequestContext, type Db, type Queryable } from '../../local/db/database'
import { migrate } from '../../local/db/migrate'
import { ensureAuthSchema } from '../../local/auth/schema'

let shared: Promise<Db> | undefined

export function testDb(): Promise<Db> {
  shared ??= open()
  return shared
}

async function open(): Promise<Db> {
  const serverUrl = process.env.TEST_DATABASE_URL
  if (!serverUrl) {
    const db = await openDatabase({})
    await migrate(db, { seed: true, afterBootstrap: ensureAuthSchema })
    return db
  }
  const name = `growletter_test_${process.pid}_${Date.now()}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  // Leftovers of earlier runs (a worker does not always reach beforeExit); one still in use stays.
  const stale = await admin.query<{ datname: string }>(
    "select datname from pg_database where datname like 'growletter_test_%'",
  )
  for (const { datname } of stale.rows) await admin.query(`drop database if exists ${datname}`).catch(() => {})
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const db = await openDatabase({ databaseUrl: url.toString() })
  await migrate(db, { seed: true, afterBootstrap: ensureAuthSchema })
  process.once('beforeExit', () => void dropDatabase(db, serverUrl, name))
  return db
}

async function dropDatabase(db: Db, serverUrl: string, name: string) {
  await db.close().catch(() => {})
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`drop database if exists ${name} with (force)`).catch(() => {})
  await admin.end()
}

export type Actor =
  | { role: 'anon' }
  | { role: 'service_role' }
  | { role: 'authenticated'; id: string; email: string; aal?: 'aal1' | 'aal2' }

export const anon: Actor = { role: 'anon' }
export const service: Actor = { role: 'service_role' }
export const user = (id: string, email: string, aal: 'aal1' | 'aal2' = 'aal1'): Actor => ({
  role: 'authenticated',
  id,
  email,
  aal,
})
/** The same user in a session raised by a verified TOTP code (admins need it for everything admin). */
export const atAal2 = (actor: Actor): Actor => (actor.role === 'authenticated' ? { ...actor, aal: 'aal2' } : actor)

/** Runs `fn` as the actor would through the API: role, JWT claims and request headers set for one transaction. */
export async function as<T>(actor: Actor, fn: (tx: Queryable) => Promise<T>, headers: Record<string, string> = {}) {
  const db = await testDb()
  const claims =
    actor.role === 'authenticated'
      ? { sub: actor.id, role: 'authenticated', email: actor.email, aal: actor.aal ?? 'aal1' }
      : { role: actor.role }
  return withRequestContext(db, { role: actor.role, claims, headers }, fn)
}

/** One statement as the actor; resolves to its rows. */
export async function queryAs<T = Record<string, unknown>>(
  actor: Actor,
  sql: string,
  params: unknown[] = [],
  headers = {},
) {
  return as(actor, async (tx) => (await tx.query<T>(sql, params)).rows, headers)
}

/** The error message a statement run as the actor raises ('' when it succeeds). */
export async function errorOf(actor: Actor, sql: string, params: unknown[] = [], headers = {}): Promise<string> {
  try {
    await queryAs(actor, sql, params, headers)
    return ''
  } catch (error) {
    return (error as Error).message
  }
}
