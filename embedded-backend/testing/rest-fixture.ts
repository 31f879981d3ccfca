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

export async function postgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL!
  const name = `growletter_gw_${process.pid}_${Date.now()}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
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
  const database = engine === 'postgres' ? await postgresDatabase() : null
  const backend = await startBackend({
    port: 0,
    dataDir: null,
    databaseUrl: database?.url ?? '',
    seed: false,
    ...options,
  })
  await backend.db.exec(setupSql)
  await backend.reloadSchema()
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
