// Asymmetric signing keys, as new hosted projects sign user tokens: the local ES256 key by default, or the one
// `[auth] signing_keys_path` names. User tokens carry the key's kid, /.well-known/jwks.json serves the public half,
// supabase-js's getClaims() verifies them without asking the server, and the gateway, the auth API and SQL's
// auth.uid() accept them; legacy HS256 tokens (the JWT secret) still verify.
// Runs on the engine TEST_DATABASE_URL chooses (PGlite or PostgreSQL; scripts/test.ts runs it on both).
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createClient } from '@supabase/supabase-js'
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair } from 'jose'
import ws from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCAL_SIGNING_JWK, signJwt } from '../keys'
import { freshIp, signedInUser, startAuthTestBackend, type AuthTestBackend } from '../testing/auth-backend'

let dir: string
let backend: AuthTestBackend
let plain: AuthTestBackend
const KID = 'test-key-1'

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'growletter-keys-'))
  const { privateKey } = await generateKeyPair('ES256', { extractable: true })
  const file = path.join(dir, 'signing_keys.json')
  await writeFile(
    file,
    JSON.stringify([
      { ...(await exportJWK(privateKey)), kid: KID, alg: 'ES256', use: 'sig', key_ops: ['sign', 'verify'], ext: true },
    ]),
  )
  // One after the other: on PostgreSQL both would create the cluster-wide API roles at once and collide.
  backend = await startAuthTestBackend({ auth: { signing_keys_path: file } })
  plain = await startAuthTestBackend()
})
afterAll(async () => {
  await Promise.all([backend?.close(), plain?.close()])
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('asymmetric signing keys', () => {
  it('signs user tokens with ES256 and the key id, and serves only the public key at /.well-known/jwks.json', async () => {
    const { session } = await signedInUser(backend, 'keys@example.test')
    expect(decodeProtectedHeader(session.access_token)).toMatchObject({ alg: 'ES256', kid: KID, typ: 'JWT' })
    // Public, as on hosted Supabase: no apikey needed.
    const res = await fetch(`${backend.apiUrl}/auth/v1/.well-known/jwks.json`)
    expect(res.status).toBe(200)
    const { keys } = (await res.json()) as { keys: Record<string, unknown>[] }
    expect(keys).toEqual([expect.objectContaining({ kty: 'EC', crv: 'P-256', kid: KID, alg: 'ES256', use: 'sig' })])
    expect(keys[0]).not.toHaveProperty('d')
  })

  it('lets getClaims() verify locally: no request to /user, one to the JWKS', async () => {
    const email = 'claims@example.test'
    await backend.admin().auth.admin.createUser({ email, password: 'test-password-1', email_confirm: true })
    const seen: string[] = []
    const client = createClient(backend.apiUrl, backend.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: ws as never },
      global: {
        headers: { 'x-forwarded-for': freshIp() },
        fetch: (input, init) => {
          seen.push(new URL(String(input instanceof Request ? input.url : input)).pathname)
          return fetch(input, init)
        },
      },
    })
    const signIn = await client.auth.signInWithPassword({ email, password: 'test-password-1' })
    expect(signIn.error).toBeNull()
    seen.length = 0
    const { data, error } = await client.auth.getClaims()
    expect(error).toBeNull()
    expect(data?.claims).toMatchObject({ sub: signIn.data.user!.id, email, role: 'authenticated' })
    expect(seen).toEqual(['/auth/v1/.well-known/jwks.json'])
  })

  it('accepts the tokens in the auth API and in SQL (auth.uid() under RLS)', async () => {
    const { client, user } = await signedInUser(backend, 'sql@example.test')
    expect((await client.auth.getUser()).data.user?.id).toBe(user.id)
    const { data, error } = await client.from('profiles').select('id').eq('id', user.id)
    expect(error).toBeNull()
    expect(data).toEqual([{ id: user.id }])
  })
})

describe('the default signing key (no signing_keys_path)', () => {
  /** A client as the SPA makes one: the publishable key, every request seen. */
  function spaClient(seen: string[]) {
    return createClient(plain.apiUrl, plain.publishableKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: ws as never },
      global: {
        headers: { 'x-forwarded-for': freshIp() },
        fetch: (input, init) => {
          seen.push(new URL(String(input instanceof Request ? input.url : input)).pathname)
          return fetch(input, init)
        },
      },
    })
  }

  it('signs user tokens with the local ES256 key and serves its public half at /.well-known/jwks.json', async () => {
    const { session } = await signedInUser(plain, 'default-key@example.test')
    expect(decodeProtectedHeader(session.access_token)).toMatchObject({
      alg: 'ES256',
      kid: LOCAL_SIGNING_JWK.kid,
      typ: 'JWT',
    })
    const res = await fetch(`${plain.apiUrl}/auth/v1/.well-known/jwks.json`)
    expect(res.status).toBe(200)
    const { keys } = (await res.json()) as { keys: Record<string, unknown>[] }
    expect(keys).toEqual([
      {
        kty: 'EC',
        crv: 'P-256',
        x: LOCAL_SIGNING_JWK.x,
        y: LOCAL_SIGNING_JWK.y,
        kid: LOCAL_SIGNING_JWK.kid,
        alg: 'ES256',
        use: 'sig',
        key_ops: ['verify'],
      },
    ])
  })

  it("lets getClaims() of a publishable-key client verify the user's token through the JWKS, with no request to /user", async () => {
    const email = 'default-claims@example.test'
    await plain.admin().auth.admin.createUser({ email, password: 'test-password-1', email_confirm: true })
    const seen: string[] = []
    const client = spaClient(seen)
    const signIn = await client.auth.signInWithPassword({ email, password: 'test-password-1' })
    expect(signIn.error).toBeNull()
    seen.length = 0
    const { data, error } = await client.auth.getClaims()
    expect(error).toBeNull()
    expect(data?.claims).toMatchObject({ sub: signIn.data.user!.id, email, role: 'authenticated' })
    expect(seen).toEqual(['/auth/v1/.well-known/jwks.json'])
    // The same token opens the user's own rows through REST, auth.uid() reading its sub.
    const own = await client.from('profiles').select('id').eq('id', signIn.data.user!.id)
    expect(own).toMatchObject({ error: null, data: [{ id: signIn.data.user!.id }] })
  })

  it('still accepts a legacy HS256 user token (the JWT secret) in the auth API, REST and SQL', async () => {
    const { user, session } = await signedInUser(plain, 'legacy-hs256@example.test')
    const legacy = await signJwt(decodeJwt(session.access_token))
    expect(decodeProtectedHeader(legacy)).toMatchObject({ alg: 'HS256' })
    const client = createClient(plain.apiUrl, plain.publishableKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: ws as never },
      global: { headers: { Authorization: `Bearer ${legacy}`, 'x-forwarded-for': freshIp() } },
    })
    expect((await client.auth.getUser(legacy)).data.user?.id).toBe(user.id)
    const { data, error } = await client.from('profiles').select('id').eq('id', user.id)
    expect(error).toBeNull()
    expect(data).toEqual([{ id: user.id }])
  })
})
