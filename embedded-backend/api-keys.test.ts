// The API keys as hosted Supabase issues them today, through the real gateway, auth API, REST API and Deno
// functions: the publishable key (sb_publishable_…) acts as anon and the secret key (sb_secret_…) as service_role,
// beside the legacy anon and service_role JWTs, which keep working; a secret key from a browser is refused with 401;
// an opaque key in Authorization is taken only when it repeats the apikey; .env.local carries both generations.
// Runs on the engine TEST_DATABASE_URL chooses (PGlite or PostgreSQL; scripts/test.ts runs it on both).
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { decodeProtectedHeader } from 'jose'
import ws from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { envFor } from './cli'
import { writeEnvLocal } from './config'
import { engines, startTestBackend, type TestBackend } from './testing/rest-fixture'

const SETUP_SQL = `
create function public.gw_key_role() returns jsonb language sql stable as $$
  select jsonb_build_object(
    'current_user', current_user::text,
    'claims_role', nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role'
  )
$$;
revoke execute on function public.gw_key_role() from public;
grant execute on function public.gw_key_role() to anon, authenticated, service_role;
`

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0 Safari/537.36'

describe.each(engines)('API keys (%s)', (engine) => {
  let b: TestBackend
  let ipCounter = 0
  beforeAll(async () => {
    b = await startTestBackend(engine, SETUP_SQL, { cron: false, clientIpHeader: 'x-forwarded-for' })
  })
  afterAll(async () => {
    await b?.close()
  })

  /** supabase-js with `key`, as a server (Node's User-Agent) unless `headers` say otherwise. */
  const client = (key: string, headers: Record<string, string> = {}): SupabaseClient =>
    createClient(b.apiUrl, key, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: ws as never },
      global: { headers: { 'x-forwarded-for': `198.51.100.${++ipCounter % 250}`, ...headers } },
    })
  const roleWith = async (key: string) => (await client(key).rpc('gw_key_role')).data as Record<string, string>
  const raw = (pathname: string, headers: Record<string, string>, init: RequestInit = {}) =>
    fetch(`${b.apiUrl}${pathname}`, { ...init, headers: { 'content-type': 'application/json', ...headers } })

  async function advertiser(key: string): Promise<{ id: string; client: SupabaseClient }> {
    const email = `keys-${Date.now()}-${ipCounter}@example.test`
    const created = await client(b.secretKey).auth.admin.createUser({
      email,
      password: 'a-long-password-1',
      email_confirm: true,
      user_metadata: { user_type: 'advertiser' },
    })
    expect(created.error).toBeNull()
    const signedIn = client(key)
    const { error } = await signedIn.auth.signInWithPassword({ email, password: 'a-long-password-1' })
    expect(error).toBeNull()
    return { id: created.data.user!.id, client: signedIn }
  }

  it('issues keys shaped as hosted ones, distinct from the legacy JWTs', () => {
    expect(b.publishableKey).toMatch(/^sb_publishable_[\w-]+$/)
    expect(b.secretKey).toMatch(/^sb_secret_[\w-]+$/)
    expect(decodeProtectedHeader(b.anonKey)).toMatchObject({ alg: 'HS256' })
    expect(decodeProtectedHeader(b.serviceRoleKey)).toMatchObject({ alg: 'HS256' })
  })

  it('runs REST requests as anon with the publishable key and as service_role with the secret key, as the legacy JWTs do', async () => {
    for (const [key, role] of [
      [b.publishableKey, 'anon'],
      [b.anonKey, 'anon'],
      [b.secretKey, 'service_role'],
      [b.serviceRoleKey, 'service_role'],
    ] as const) {
      expect(await roleWith(key)).toEqual({ current_user: role, claims_role: role })
      // The key alone in apikey, no Authorization header, as a plain HTTP client sends it.
      const res = await raw('/rest/v1/rpc/gw_key_role', { apikey: key }, { method: 'POST', body: '{}' })
      expect(await res.json()).toEqual({ current_user: role, claims_role: role })
    }
  })

  it("lets a signed-in user's token decide the role beside the publishable key (authenticated)", async () => {
    const { client: signedIn } = await advertiser(b.publishableKey)
    expect((await signedIn.rpc('gw_key_role')).data).toEqual({
      current_user: 'authenticated',
      claims_role: 'authenticated',
    })
  })

  it('refuses a secret key sent by a browser with 401 on REST, auth and functions, as hosted does', async () => {
    for (const pathname of [
      '/rest/v1/rpc/gw_key_role',
      '/auth/v1/admin/users',
      '/functions/v1/create-checkout-session',
    ]) {
      const res = await raw(
        pathname,
        { apikey: b.secretKey, authorization: `Bearer ${b.secretKey}`, 'user-agent': BROWSER },
        { method: 'POST', body: '{}' },
      )
      expect(res.status).toBe(401)
      expect(await res.json()).toMatchObject({ message: 'Forbidden use of secret API key in browser' })
    }
    // The same browser with the publishable key is served; so is a server with the secret key.
    const browser = await raw(
      '/rest/v1/rpc/gw_key_role',
      { apikey: b.publishableKey, 'user-agent': BROWSER },
      { method: 'POST', body: '{}' },
    )
    expect(await browser.json()).toEqual({ current_user: 'anon', claims_role: 'anon' })
    const server = await raw(
      '/rest/v1/rpc/gw_key_role',
      { apikey: b.secretKey, 'user-agent': 'node' },
      { method: 'POST', body: '{}' },
    )
    expect(await server.json()).toEqual({ current_user: 'service_role', claims_role: 'service_role' })
  })

  it('takes an sb_ key in Authorization only when it repeats the apikey, and refuses keys it did not issue', async () => {
    const call = (apikey: string, authorization?: string) =>
      raw(
        '/rest/v1/rpc/gw_key_role',
        { apikey, ...(authorization ? { authorization } : {}) },
        { method: 'POST', body: '{}' },
      )
    // A publishable key cannot borrow the secret key's role through Authorization, nor the other way round.
    expect((await call(b.publishableKey, `Bearer ${b.secretKey}`)).status).toBe(401)
    expect((await call(b.secretKey, `Bearer ${b.publishableKey}`)).status).toBe(401)
    expect((await call(b.anonKey, `Bearer ${b.secretKey}`)).status).toBe(401)
    const made = await call('sb_publishable_NotIssuedByThisProject0_abcdefgh')
    expect(made.status).toBe(401)
    expect(await made.json()).toMatchObject({ message: 'Invalid API key' })
    expect((await call('sb_secret_NotIssuedByThisProject0000_abcdefgh')).status).toBe(401)
  })

  it('opens the auth admin API to the secret key only, and signs users in with the publishable key', async () => {
    const admin = await client(b.secretKey).auth.admin.listUsers({ page: 1, perPage: 1 })
    expect(admin.error).toBeNull()
    const refused = await client(b.publishableKey).auth.admin.listUsers({ page: 1, perPage: 1 })
    expect(refused.error).toMatchObject({ status: 403 })
    const { client: signedIn } = await advertiser(b.publishableKey)
    const { data } = await signedIn.auth.getSession()
    expect(decodeProtectedHeader(data.session!.access_token)).toMatchObject({ alg: 'ES256' })
    expect((await signedIn.auth.getUser()).error).toBeNull()
  })

  it('lets a function with verify_jwt on refuse a caller with no JWT, and serve a signed-in one through the secret key', async () => {
    // Signed out, supabase-js sends `Bearer <publishable key>`: no JWT, so the platform check answers 401.
    const signedOut = await client(b.publishableKey).functions.invoke('create-checkout-session', {
      body: { amount: 20 },
    })
    expect(signedOut.error).toBeTruthy()
    const res = (signedOut.error as { context: Response }).context
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ code: 401, message: 'Invalid JWT' })
    // Signed in, the function checks the user itself and reads as the service role with SUPABASE_SECRET_KEYS.
    const { client: signedIn } = await advertiser(b.publishableKey)
    const opened = await signedIn.functions.invoke('create-checkout-session', { body: { amount: 20 } })
    expect(opened.error).toBeNull()
    expect(opened.data.url).toMatch(new RegExp(`^${b.apiUrl}/checkout/`))
    // A function with verify_jwt off is reachable with the publishable key, or with no key at all.
    for (const headers of [{ apikey: b.publishableKey }, {}] as Record<string, string>[]) {
      const open = await raw(
        '/functions/v1/verify-subscription',
        { ...headers, 'x-forwarded-for': '203.0.113.77' },
        { method: 'POST', body: JSON.stringify({ token: 'unknown', email: 'a@example.test' }) },
      )
      expect(open.status).toBe(200)
    }
  })

  it('writes both generations of keys to .env.local, the server-side ones never VITE_-prefixed', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'growletter-keys-env-'))
    try {
      const file = path.join(dir, '.env.local')
      await writeEnvLocal(file, envFor(b))
      const env = Object.fromEntries(
        (await readFile(file, 'utf8'))
          .trim()
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      )
      expect(env).toMatchObject({
        VITE_SUPABASE_URL: b.apiUrl,
        VITE_SUPABASE_PUBLISHABLE_KEY: b.publishableKey,
        VITE_SUPABASE_ANON_KEY: b.anonKey,
        SUPABASE_SECRET_KEY: b.secretKey,
        SUPABASE_SERVICE_ROLE_KEY: b.serviceRoleKey,
      })
      for (const [name, value] of Object.entries(env))
        if (name.startsWith('VITE_')) expect([b.secretKey, b.serviceRoleKey]).not.toContain(value)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
