/**
 * The one database the db test project shares (files run one after another in one worker, isolate off):
 * an in-memory PGlite migrated with the seed, or — when TEST_DATABASE_URL names a PostgreSQL server — a
 * fresh database created in that server for this run (dropped at exit, or by the next run).
 */
import { createHash } from 'node:crypto'
import pg from 'pg'
import { openDatabase, withRequestContext, type Db, type Queryable } from '../../../embedded-backend/db/database'
import { migrate, seedDatabase } from '../../../embedded-backend/db/migrate'
import { openBackendDb } from '../../../embedded-backend/db/open-backend-db'
import { ensureAuthSchema } from '../../../embedded-backend/auth/schema'

let shared: Promise<Db> | undefined

export function testDb(): Promise<Db> {
  shared ??= open()
  return shared
}

async function open(): Promise<Db> {
  const serverUrl = process.env.TEST_DATABASE_URL
  if (!serverUrl) {
    // The migrated database of the current sources as the backend starts one (the dump npm install or the first
    // start made, ≈1 s to load; else migrated here from scratch and dumped), then the seed run now, as migrate runs
    // it on a new database: loading the dump instead of migrating on PGlite saves ~10 CPU-seconds a run.
    const { db } = await openBackendDb({ seed: false, afterBootstrap: ensureAuthSchema })
    await seedDatabase(db)
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

/**
 * The Vault secrets the scheduled jobs read, written as an operator writes them on hosted (through Vault's
 * functions: postgres may not insert into vault.secrets); any earlier ones are replaced.
 */
export const STORE_VAULT_SECRETS = `
  delete from vault.secrets where name in ('project_url', 'functions_secret');
  select vault.create_secret('http://127.0.0.1:54321', 'project_url'),
    vault.create_secret('functions-secret', 'functions_secret');`

export type Actor =
  | { role: 'anon' }
  | { role: 'service_role' }
  | {
      role: 'authenticated'
      id: string
      email: string
      aal?: 'aal1' | 'aal2'
      /** The token's session_id claim. Unset: a live session of this user (created on first use), as a
       * freshly issued token has; set it to act with a session that has ended or never existed. */
      sessionId?: string
    }

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

/** The same user acting with a token whose session is `sessionId` (ended, or never issued). */
export const inSession = (actor: Actor, sessionId: string): Actor =>
  actor.role === 'authenticated' ? { ...actor, sessionId } : actor

/** A stable session id per user and assurance level, so a test user's sessions are the ones GoTrue would keep. */
const liveSessionId = (id: string, aal: string) => {
  const h = createHash('sha256').update(`${id}:${aal}`).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}
const ensured = new Set<string>()

/** The auth.sessions row a signed-in actor's token points at (the auth server creates it at sign-in). */
async function liveSession(db: Db, id: string, aal: string) {
  const sessionId = liveSessionId(id, aal)
  if (!ensured.has(sessionId)) {
    const r = await db.query(
      `insert into auth.sessions (id, user_id, aal) select $1, $2, $3 where exists (select 1 from auth.users where id = $2)
       on conflict (id) do nothing`,
      [sessionId, id, aal],
    )
    if (r.affectedRows > 0 || (await db.query('select 1 from auth.sessions where id = $1', [sessionId])).rows.length)
      ensured.add(sessionId)
  }
  return sessionId
}

/** Runs `fn` as the actor would through the API: role, JWT claims and request headers set for one transaction. */
export async function as<T>(actor: Actor, fn: (tx: Queryable) => Promise<T>, headers: Record<string, string> = {}) {
  const db = await testDb()
  const claims =
    actor.role === 'authenticated'
      ? {
          sub: actor.id,
          role: 'authenticated',
          email: actor.email,
          aal: actor.aal ?? 'aal1',
          session_id: actor.sessionId ?? (await liveSession(db, actor.id, actor.aal ?? 'aal1')),
        }
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

/**
 * Runs the scheduled drain-click-queue job once, as the scheduler does (service role): clicks reach the click
 * figures (source_daily_stats, not_counted_daily) only through it. Resolves to how many queued clicks it took.
 */
export async function drainClicks(): Promise<number> {
  const rows = await queryAs<{ n: number }>(service, 'select public.drain_click_queue() as n')
  return rows[0]!.n
}
