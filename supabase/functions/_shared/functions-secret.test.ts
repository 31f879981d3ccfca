// The database→function path without the legacy service-role JWT: the backend keeps a random functions_secret in
// Vault (one per database, kept across starts), pg_net sends it as x-functions-secret with no JWT, the scheduled
// functions (verify_jwt = false) run for it and refuse every other caller, the service-role and secret keys
// included. Runs on the engine TEST_DATABASE_URL chooses (PGlite or PostgreSQL; scripts/test.ts runs it on both).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureFunctionsSecret, startBackground } from '../../../embedded-backend/cron/background'
import { startBackend, type Backend } from '../../../embedded-backend/server'
import { engines, postgresDatabase } from '../../../embedded-backend/testing/rest-fixture'

const SCHEDULED = {
  'send-notifications': 'Only the database may send notifications',
  'deliver-webhooks': 'Only the database may deliver webhooks',
  'deliver-esp': 'Only the database may deliver subscribers to email tools',
  'send-payouts': 'Only the database may send payouts',
} as const
const NAMES = Object.keys(SCHEDULED) as (keyof typeof SCHEDULED)[]

describe.each(engines)('functions secret (%s)', (engine) => {
  let backend: Backend
  let database: Awaited<ReturnType<typeof postgresDatabase>> | null = null
  beforeAll(async () => {
    database = engine === 'postgres' ? await postgresDatabase({ seed: false }) : null
    backend = await startBackend({ port: 0, dataDir: null, databaseUrl: database?.url ?? '', seed: false, cron: false })
  })
  afterAll(async () => {
    await backend?.close()
    await database?.drop()
  })

  const vault = async () =>
    Object.fromEntries(
      (
        await backend.db.query<{ name: string; secret: string }>(
          'select name, decrypted_secret as secret from vault.decrypted_secrets order by name',
        )
      ).rows.map((r) => [r.name, r.secret]),
    )
  const call = (name: string, headers: Record<string, string>) =>
    fetch(`${backend.apiUrl}/functions/v1/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: '{}',
    })

  it('keeps a random functions_secret in Vault beside project_url, the same on every start, and no service-role key', async () => {
    expect(backend.functionsSecret).toMatch(/^[\w-]{43}$/)
    // A database from before keeps the legacy key under its old name: the next start removes it.
    // Through Vault's function, as on hosted (postgres may not insert into vault.secrets).
    await backend.db.query("select vault.create_secret($1, 'service_role_key')", [backend.serviceRoleKey])
    const restarted = await startBackground({ db: backend.db, apiUrl: backend.apiUrl, timers: false })
    await restarted.close()
    expect(await ensureFunctionsSecret(backend.db)).toBe(backend.functionsSecret)
    expect(await vault()).toEqual({ functions_secret: backend.functionsSecret, project_url: backend.apiUrl })
  })

  it('has pg_net call each scheduled function with x-functions-secret and no JWT, and each runs', async () => {
    const ids: Record<string, string> = {}
    for (const name of NAMES) {
      const kicked = await backend.db.query<{ ok: boolean }>('select private.kick_edge_function($1, 60000) as ok', [
        name,
      ])
      expect(kicked.rows[0]!.ok).toBe(true)
      const queued = await backend.db.query<{ id: string; headers: Record<string, string> }>(
        'select id::text, headers from net.http_request_queue where url = $1',
        [`${backend.apiUrl}/functions/v1/${name}`],
      )
      expect(queued.rows).toEqual([
        {
          id: expect.any(String),
          headers: { 'Content-Type': 'application/json', 'x-functions-secret': backend.functionsSecret },
        },
      ])
      ids[name] = queued.rows[0]!.id
    }
    await backend.cron.drainNet()
    for (const name of NAMES) {
      const answer = await backend.db.query<{ status_code: number; content: string }>(
        'select status_code, content from net._http_response where id = $1::bigint',
        [ids[name]],
      )
      expect({ name, status: answer.rows[0]?.status_code }).toEqual({ name, status: 200 })
    }
  })

  it('refuses every other caller with 403: no secret, a wrong one, the secret key, the legacy service-role key', async () => {
    for (const name of NAMES) {
      for (const headers of [
        {} as Record<string, string>,
        { 'x-functions-secret': 'not-the-secret' },
        { 'x-functions-secret': `${backend.functionsSecret}x` },
        { apikey: backend.secretKey, authorization: `Bearer ${backend.secretKey}` },
        { apikey: backend.serviceRoleKey, authorization: `Bearer ${backend.serviceRoleKey}` },
      ]) {
        const res = await call(name, headers)
        expect({ name, headers, status: res.status, body: await res.json() }).toEqual({
          name,
          headers,
          status: 403,
          body: { error: SCHEDULED[name] },
        })
      }
    }
    // The secret alone opens them, with no apikey and no JWT (verify_jwt = false in config.toml).
    const res = await call('send-notifications', { 'x-functions-secret': backend.functionsSecret })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ sent: 0, failed: 0 })
  })

  it('makes a scheduled dispatcher with work due name the Vault secrets it lacks', async () => {
    await backend.db.query("delete from vault.secrets where name = 'functions_secret'")
    try {
      await expect(
        backend.db.query("select private.kick_edge_function_or_raise('send-notifications', 60000)"),
      ).rejects.toThrow(
        "Store project_url and functions_secret in Vault (vault.create_secret) so scheduled jobs can call edge functions; functions_secret must equal the functions' FUNCTIONS_SECRET",
      )
    } finally {
      await backend.db.query("select vault.create_secret($1, 'functions_secret', 'restored by the test')", [
        backend.functionsSecret,
      ])
    }
  })
})
