/**
 * The whole embedded backend (gateway, auth, mailbox, in-memory database with the real migrations, so
 * the auth.users triggers run) started on ephemeral ports, and supabase-js clients for it. The backend
 * trusts x-forwarded-for (CLIENT_IP_HEADER, as behind a proxy) so each client gets its own made-up client
 * IP, and per-IP rate limits never couple one test to another; the rate-limit tests pick their IPs on purpose.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import ws from 'ws'
import { startBackend, type Backend, type BackendOptions } from '../server'
import { postgresDatabase, type Engine } from './rest-fixture'

/** PostgreSQL when TEST_DATABASE_URL names a server (a database is made for each backend), else PGlite in memory. */
export const engine: Engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'

export type AuthTestBackend = Backend & {
  /** A fresh supabase-js client with the anon key; `headers` may set x-forwarded-for and the like. */
  client(headers?: Record<string, string>): SupabaseClient
  /** A supabase-js client with the service-role key, for `auth.admin`. */
  admin(): SupabaseClient
}

let ipCounter = 0
/** A distinct documentation-range address (RFC 5737) per call. */
export const freshIp = () => `198.51.${Math.floor(++ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`

/**
 * The product's emails offer links only (no screen takes a code), but GoTrue sends a code wherever a template has
 * `{{ .Token }}`: the tests of the code flows (verifyOtp with an emailed code) use these templates.
 */
export const EMAIL_CODE_TEMPLATES = {
  email: {
    template: {
      confirmation: { content_path: 'embedded-backend/testing/fixtures/templates/confirmation-with-code.html' },
      magic_link: { content_path: 'embedded-backend/testing/fixtures/templates/magic_link-with-code.html' },
    },
  },
}

/**
 * `opts` may override config.toml's `[auth]` keys, e.g. `{ auth: { enable_anonymous_sign_ins: true } }`, or ask for
 * seed.sql (`{ seed: true }`; by default the database holds the migrations only), or no background jobs (`cron`).
 */
export async function startAuthTestBackend(
  opts: Pick<BackendOptions, 'auth' | 'seed' | 'cron'> = {},
): Promise<AuthTestBackend> {
  // Run as behind a trusted proxy that sets x-forwarded-for, so each simulated client has its own IP.
  const database = engine === 'postgres' ? await postgresDatabase({ seed: opts.seed ?? false }) : null
  const backend = await startBackend({
    port: 0,
    dataDir: null,
    databaseUrl: database?.url ?? '',
    seed: false,
    clientIpHeader: 'x-forwarded-for',
    ...opts,
  })
  const make = (key: string, headers: Record<string, string>) =>
    createClient(backend.apiUrl, key, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: ws as never },
      global: { headers },
    })
  return {
    ...backend,
    client: (headers = {}) => make(backend.anonKey, { 'x-forwarded-for': freshIp(), ...headers }),
    admin: () => make(backend.serviceRoleKey, { 'x-forwarded-for': freshIp() }),
    async close() {
      await backend.close()
      await database?.drop()
    },
  }
}

/** A confirmed user made through the admin API, signed in on its own client. */
export async function signedInUser(backend: AuthTestBackend, email: string, password = 'test-password-1') {
  const { data, error } = await backend.admin().auth.admin.createUser({ email, password, email_confirm: true })
  if (error) throw error
  const client = backend.client()
  const signIn = await client.auth.signInWithPassword({ email, password })
  if (signIn.error) throw signIn.error
  return { client, user: data.user, session: signIn.data.session, password }
}
