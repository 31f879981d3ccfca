// Asymmetric signing keys (`[auth] signing_keys_path`, as hosted projects default to): user tokens are ES256
// with the key's kid, /.well-known/jwks.json serves the public half, supabase-js's getClaims() verifies them
// without asking the server, and the gateway, the auth API and SQL's auth.uid() accept them.
// Runs on the engine TEST_DATABASE_URL chooses (PGlite or PostgreSQL; scripts/test.ts runs it on both).
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createClient } from '@supabase/supabase-js'
import { decodeProtectedHeader, exportJWK, generateKeyPair } from 'jose'
import ws from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshIp, signedInUser, startAuthTestBackend, type AuthTestBackend } from './helpers/auth-backend'

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

  it('keeps HS256 and an empty key set without signing_keys_path (the Supabase CLI default)', async () => {
    const { session } = await signedInUser(plain, 'hs@example.test')
    expect(decodeProtectedHeader(session.access_token)).toMatchObject({ alg: 'HS256' })
    const res = await fetch(`${plain.apiUrl}/auth/v1/.well-known/jwks.json`, { headers: { apikey: plain.anonKey } })
    expect(await res.json()).toEqual({ keys: [] })
  })
})
