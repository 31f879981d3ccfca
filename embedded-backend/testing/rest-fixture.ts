/**
 * The backend the gateway and REST tests drive: the real `startBackend` on an ephemeral port with an
 * in-memory PGlite (or, for the PostgreSQL run, a database created for this file in TEST_DATABASE_URL's
 * server), plus supabase-js clients for each role. Tests create their own tables (prefixed `gw_`) so
 * they never depend on the product schema.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { SignJWT } from 'jose'
import pg from 'pg'
import ws from 'ws'
import { signJwt } from '../keys'
import { ensureAuthSchema } from '../auth/schema'
import { seedDatabase } from '../db/migrate'
import { openBackendDb } from '../db/open-backend-db'
import { migratedSnapshotFile } from '../db/snapshot'
import { startBackend, type Backend, type BackendOptions } from '../server'

export type Engine = 'pglite' | 'postgres'

/**
 * The engine of this run: PostgreSQL when the CI script (or a developer) provides TEST_DATABASE_URL, else
 * PGlite. `npm test` runs the project once per engine (scripts/test.ts), so each engine is tested once.
 */
export const engines: Engine[] = [process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite']

export type TestBackend = Backend & {
  engine: Engine
  /** The PostgreSQL database this backend runs on (undefined on PGlite): for a second, direct connection. */
  databaseUrl: string | undefined
  anon(): SupabaseClient
  service(): SupabaseClient
  /** A client signed in as `sub` (a JWT made with the local secret, as the auth API would issue). */
  user(sub: string): Promise<SupabaseClient>
  /** Raw fetch against the API with the anon key unless headers say otherwise. */
  fetch(path: string, init?: RequestInit): Promise<Response>
}

export const clientFor = (apiUrl: string, key: string, token?: string) =>
  createClient(apiUrl, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as never },
    global: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined,
  })

export const userToken = (sub: string, expiresIn = 3600) =>
  signJwt({
    sub,
    role: 'authenticated',
    aud: 'authenticated',
    email: `${sub.slice(0, 8)}@example.test`,
    exp: Math.floor(Date.now() / 1000) + expiresIn,
  })

/** A token with the right shape signed with a different secret. */
export const forgedToken = (sub: string) =>
  new SignJWT({ sub, role: 'authenticated', exp: Math.floor(Date.now() / 1000) + 3600 })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode('not-the-local-secret-not-the-local-secret'))

/**
 * The migrated (and, with `seed`, seeded) database of the current sources on TEST_DATABASE_URL's server, made once
 * per server and kept as a template: each test file's database is a copy of it (`create database … template`,
 * about half a second) instead of running the bootstrap, the auth schema, every migration and the seed again
 * (2.5–5 s a file on a busy machine, some 30 files a run). Named for the hash of everything that shapes it (as the
 * PGlite dumps are), so a change to a migration, the auth schema or the seed makes a new one; older ones go.
 * A copy is what startBackend would have made: it finds nothing to migrate, and starts as on any existing database.
 * The seeded template is a copy of the unseeded one with the seed run on it, as the seeded PGlite dump is made.
 */
const templates = new Map<string, Promise<string>>()
function postgresTemplate(serverUrl: string, seed: boolean): Promise<string> {
  const key = `${serverUrl} ${seed}`
  let made = templates.get(key)
  if (!made) {
    made = makePostgresTemplate(serverUrl, seed)
    templates.set(key, made)
    made.catch(() => templates.delete(key))
  }
  return made
}

async function makePostgresTemplate(serverUrl: string, seed: boolean): Promise<string> {
  const hash = /-([0-9a-f]{16})\.tar$/.exec(await migratedSnapshotFile(seed))![1]
  const prefix = `growletter_template_${seed ? 'seed' : 'noseed'}_`
  const name = `${prefix}${hash}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    // One maker per server at a time (two suites may share it); the others wait and find it made.
    await admin.query('select pg_advisory_lock(hashtext($1))', [prefix])
    // The seed's rows are dated from when it ran: a template older than a run is made again (a server a developer
    // keeps between runs).
    const exists = await admin.query<{ fresh: boolean }>(
      `select coalesce(shobj_description(oid, 'pg_database')::timestamptz > now() - interval '1 hour', false) as fresh
       from pg_database where datname = $1`,
      [name],
    )
    if (!exists.rows[0]?.fresh) {
      await admin.query(`drop database if exists ${name} with (force)`)
      const building = `${name}_making`
      await admin.query(`drop database if exists ${building} with (force)`)
      // The seeded one is the unseeded one and the seed, as on PGlite (open-backend-db.ts, the unseeded dump): the
      // migrations run once per server instead of twice (≈1 CPU-second of the server's, measured 1.0 unseeded, 1.9
      // seeded from scratch, 0.45 a copy). On the copy nothing is pending; migrate only checks it.
      const base = seed ? await postgresTemplate(serverUrl, false) : null
      await admin.query(`create database ${building}${base ? ` template ${base}` : ''}`)
      const url = Object.assign(new URL(serverUrl), { pathname: `/${building}` }).toString()
      const { db } = await openBackendDb({ databaseUrl: url, seed, afterBootstrap: ensureAuthSchema })
      try {
        if (base) await seedDatabase(db)
      } finally {
        await db.close()
      }
      await admin.query(`alter database ${building} rename to ${name}`)
      await admin.query(`comment on database ${name} is '${new Date().toISOString()}'`)
      const older = await admin.query<{ datname: string }>(
        "select datname from pg_database where datname like $1 || '%' and datname <> $2",
        [prefix, name],
      )
      for (const { datname } of older.rows) await admin.query(`drop database if exists ${datname} with (force)`)
    }
    return name
  } finally {
    await admin.query('select pg_advisory_unlock(hashtext($1))', [prefix]).catch(() => {})
    await admin.end()
  }
}

/**
 * A database of its own for one test file on TEST_DATABASE_URL's server: with `migrated`, a copy of the migrated
 * (and maybe seeded) template, as startBackend would leave a new database; without it, an empty one.
 */
export async function postgresDatabase(migrated?: { seed: boolean }): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL!
  const template = migrated && (await postgresTemplate(serverUrl, migrated.seed))
  const name = `growletter_gw_${process.pid}_${Date.now()}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`)
  await admin.end()
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl })
      await c.connect()
      await c.query(`drop database if exists ${name} with (force)`).catch(() => {})
      await c.end()
    },
  }
}

/** `options` are startBackend's, e.g. `{ cron: false }` or `{ api: { db_aggregates_enabled: true } }`. */
export async function startTestBackend(
  engine: Engine,
  setupSql: string,
  options: BackendOptions = {},
): Promise<TestBackend> {
  const database = engine === 'postgres' ? await postgresDatabase({ seed: options.seed ?? false }) : null
  const backend = await startBackend({
    port: 0,
    dataDir: null,
    databaseUrl: database?.url ?? '',
    seed: false,
    ...options,
    // Before the REST schema cache loads, so its one load at start sees the test's tables (server.ts `prepare`).
    prepare: async (db) => {
      await options.prepare?.(db)
      await db.exec(setupSql)
    },
  })
  return {
    ...backend,
    engine,
    databaseUrl: database?.url,
    anon: () => clientFor(backend.apiUrl, backend.anonKey),
    service: () => clientFor(backend.apiUrl, backend.serviceRoleKey),
    user: async (sub) => clientFor(backend.apiUrl, backend.anonKey, await userToken(sub)),
    fetch: (path, init = {}) =>
      fetch(`${backend.apiUrl}${path}`, {
        ...init,
        headers: {
          apikey: backend.anonKey,
          authorization: `Bearer ${backend.anonKey}`,
          ...(init.headers as Record<string, string>),
        },
      }),
    async close() {
      await backend.close()
      await database?.drop()
    },
  }
}
