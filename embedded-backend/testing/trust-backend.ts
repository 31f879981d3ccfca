/**
 * The backend the trust tests attack: the real `startBackend`, on this run's engine (PGlite, or a fresh
 * database on TEST_DATABASE_URL's server for the PostgreSQL run), deployed as behind a reverse proxy
 * that sets `x-real-ip` (CLIENT_IP_HEADER). Honest clients get their address from that "proxy" header;
 * attackers forge `x-forwarded-for` on top, which is exactly what a client can write.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import ws from 'ws'
import { startBackend, type Backend, type BackendOptions } from '../server'
import { postgresDatabase, type Engine } from './rest-fixture'

export const engine: Engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'
export const PROXY_HEADER = 'x-real-ip'

export type TrustBackend = Backend & {
  engine: Engine
  /** A supabase-js client whose requests the proxy says come from `ip`; `extra` headers ride along. */
  client(ip: string, extra?: Record<string, string>): SupabaseClient
  /** A supabase-js client with the service-role key, for `auth.admin`. */
  admin(): SupabaseClient
  /** fetch against the API with the anon key, from `ip` as the proxy says. */
  fetch(path: string, ip: string, init?: RequestInit): Promise<Response>
}

let counter = 0
/** A distinct documentation-range address (RFC 5737) per call. */
export const nextIp = () => `203.0.${Math.floor(++counter / 250) % 250}.${(counter % 250) + 1}`
/** A different made-up address every call: what an attacker writes into X-Forwarded-For. */
export const forgedIp = () => `10.${(counter * 7) % 250}.${Math.floor(Math.random() * 250)}.${(++counter % 250) + 1}`

export async function startTrustBackend({
  seed,
  auth,
  prepare,
}: {
  seed: boolean
  auth?: BackendOptions['auth']
  /** The test's own tables and functions, made before the REST schema cache loads (server.ts `prepare`). */
  prepare?: BackendOptions['prepare']
}): Promise<TrustBackend> {
  const database = engine === 'postgres' ? await postgresDatabase({ seed }) : null
  const backend = await startBackend({
    port: 0,
    dataDir: null,
    databaseUrl: database?.url ?? '',
    seed,
    clientIpHeader: PROXY_HEADER,
    auth,
    prepare,
  })
  const client = (key: string, headers: Record<string, string>) =>
    createClient(backend.apiUrl, key, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: ws as never },
      global: { headers },
    })
  return {
    ...backend,
    engine,
    client: (ip, extra = {}) => client(backend.anonKey, { [PROXY_HEADER]: ip, ...extra }),
    admin: () => client(backend.serviceRoleKey, { [PROXY_HEADER]: nextIp() }),
    fetch: (path, ip, init = {}) =>
      fetch(`${backend.apiUrl}${path}`, {
        ...init,
        headers: { apikey: backend.anonKey, [PROXY_HEADER]: ip, ...(init.headers as Record<string, string>) },
      }),
    async close() {
      await backend.close()
      await database?.drop()
    },
  }
}
