// Sessions: refresh-token rotation and reuse detection, the user endpoint (metadata, password), sign-out
// scopes, and how bearer tokens are refused — all through supabase-js against the real gateway.
import { AuthSessionMissingError } from '@supabase/supabase-js'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signJwt } from '../keys'
import { signedInUser, startAuthTestBackend, type AuthTestBackend } from '../testing/auth-backend'

let backend: AuthTestBackend

beforeAll(async () => {
  backend = await startAuthTestBackend()
})
afterAll(async () => {
  await backend?.close()
})

async function rawRefresh(refreshToken: string) {
  const res = await fetch(`${backend.apiUrl}/auth/v1/token?grant_type=refresh_token`, {
    method: 'POST',
    headers: { apikey: backend.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: refreshToken }),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

describe('refresh tokens', () => {
  it('rotates: a refresh returns a new refresh token and a new access token in the same session', async () => {
    const { client, session } = await signedInUser(backend, 'rotate@example.test')
    const { data, error } = await client.auth.refreshSession({ refresh_token: session!.refresh_token })
    expect(error).toBeNull()
    expect(data.session!.refresh_token).not.toBe(session!.refresh_token)
    expect(decodeJwt(data.session!.access_token).session_id).toBe(decodeJwt(session!.access_token).session_id)
    expect(data.user?.email).toBe('rotate@example.test')
  })

  it('lets a just-used token be replayed within the reuse interval (two tabs refreshing at once)', async () => {
    const { session } = await signedInUser(backend, 'race@example.test')
    const first = await rawRefresh(session!.refresh_token)
    const second = await rawRefresh(session!.refresh_token)
    expect(first.status).toBe(200)
    expect(second.status).toBe(200)
    expect((await rawRefresh(second.body.refresh_token as string)).status).toBe(200)
  })

  it('revokes the whole session when a used token comes back after the reuse interval', async () => {
    const { client, session } = await signedInUser(backend, 'reuse@example.test')
    const next = await rawRefresh(session!.refresh_token)
    expect(next.status).toBe(200)
    // Age the revoked token past refresh_token_reuse_interval (10 s in config.toml).
    await backend.db.query("update auth.refresh_tokens set updated_at = now() - interval '1 minute' where revoked")
    const replay = await rawRefresh(session!.refresh_token)
    expect(replay).toMatchObject({
      status: 400,
      body: { error_code: 'refresh_token_already_used', msg: 'Invalid Refresh Token: Already Used' },
    })
    // The family is gone: the legitimate newest token and the session's access token no longer work.
    expect((await rawRefresh(next.body.refresh_token as string)).body).toMatchObject({
      error_code: 'refresh_token_not_found',
    })
    const { error } = await client.auth.getUser(next.body.access_token as string)
    expect(error).toBeInstanceOf(AuthSessionMissingError)
  })

  it('refuses an unknown refresh token with 400 refresh_token_not_found', async () => {
    const { error } = await backend.client().auth.refreshSession({ refresh_token: 'not-a-token' })
    expect(error).toMatchObject({ status: 400, code: 'refresh_token_not_found' })
  })
})

describe('the user endpoint', () => {
  it('returns the signed-in user with identities and factors', async () => {
    const { client, user } = await signedInUser(backend, 'me@example.test')
    const { data, error } = await client.auth.getUser()
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ id: user!.id, email: 'me@example.test', factors: [], phone: '' })
    expect(data.user?.identities?.[0]).toMatchObject({
      provider: 'email',
      user_id: user!.id,
      identity_id: expect.any(String),
    })
  })

  it('merges `data` into user_metadata; null removes a key', async () => {
    const { client } = await signedInUser(backend, 'meta@example.test')
    await client.auth.updateUser({ data: { full_name: 'Meta Person', city: 'Lisbon' } })
    const { data, error } = await client.auth.updateUser({ data: { city: null, first_name: 'Meta' } })
    expect(error).toBeNull()
    expect(data.user?.user_metadata).toEqual({ full_name: 'Meta Person', first_name: 'Meta' })
  })

  it('changes the password: the new one signs in, the old one no longer does, other sessions end', async () => {
    const { client, password } = await signedInUser(backend, 'newpass@example.test')
    const other = backend.client()
    const otherSignIn = await other.auth.signInWithPassword({ email: 'newpass@example.test', password })
    const { error } = await client.auth.updateUser({ password: 'brand-new-password' })
    expect(error).toBeNull()
    expect(
      (await backend.client().auth.signInWithPassword({ email: 'newpass@example.test', password })).error?.code,
    ).toBe('invalid_credentials')
    expect(
      (
        await backend
          .client()
          .auth.signInWithPassword({ email: 'newpass@example.test', password: 'brand-new-password' })
      ).error,
    ).toBeNull()
    expect((await client.auth.getUser()).error).toBeNull()
    expect((await other.auth.getUser(otherSignIn.data.session!.access_token)).error).toBeInstanceOf(
      AuthSessionMissingError,
    )
  })

  it('refuses the same password (422 same_password) and a weak one (422 weak_password)', async () => {
    const { client, password } = await signedInUser(backend, 'samepass@example.test')
    expect((await client.auth.updateUser({ password })).error).toMatchObject({ status: 422, code: 'same_password' })
    expect((await client.auth.updateUser({ password: 'short' })).error).toMatchObject({
      status: 422,
      code: 'weak_password',
    })
  })
})

describe('sign-out scopes', () => {
  async function threeSessions(email: string) {
    const first = await signedInUser(backend, email)
    const tokens = [first.session!.access_token]
    for (let i = 0; i < 2; i++) {
      const { data } = await backend.client().auth.signInWithPassword({ email, password: first.password })
      tokens.push(data.session!.access_token)
    }
    const alive = async () => {
      const out: boolean[] = []
      for (const t of tokens) out.push((await backend.client().auth.getUser(t)).error === null)
      return out
    }
    return { client: first.client, alive }
  }

  it('local ends only this session', async () => {
    const { client, alive } = await threeSessions('local@example.test')
    expect((await client.auth.signOut({ scope: 'local' })).error).toBeNull()
    expect(await alive()).toEqual([false, true, true])
  })

  it('others ends every session but this one', async () => {
    const { client, alive } = await threeSessions('others@example.test')
    expect((await client.auth.signOut({ scope: 'others' })).error).toBeNull()
    expect(await alive()).toEqual([true, false, false])
  })

  it('global ends them all, and answers 204', async () => {
    const { client, alive } = await threeSessions('global@example.test')
    const token = (await client.auth.getSession()).data.session!.access_token
    const res = await fetch(`${backend.apiUrl}/auth/v1/logout?scope=global`, {
      method: 'POST',
      headers: { apikey: backend.anonKey, authorization: `Bearer ${token}` },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('x-supabase-api-version')).toBe('2024-01-01')
    expect(await alive()).toEqual([false, false, false])
  })
})

describe('bearer tokens', () => {
  const getUser = (authorization?: string) =>
    fetch(`${backend.apiUrl}/auth/v1/user`, {
      headers: { apikey: backend.anonKey, ...(authorization ? { authorization } : {}) },
    })

  it('answers a missing token with 401 no_authorization', async () => {
    const res = await getUser()
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({ code: 401, error_code: 'no_authorization' })
  })

  it('answers a forged or expired token with 403 bad_jwt', async () => {
    const forged = await getUser('Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl')
    expect(forged.status).toBe(403)
    expect(await forged.json()).toMatchObject({ error_code: 'bad_jwt' })
    const { session } = await signedInUser(backend, 'expired@example.test')
    const claims = decodeJwt(session!.access_token)
    const expired = await signJwt({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 })
    const res = await getUser(`Bearer ${expired}`)
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ error_code: 'bad_jwt' })
  })

  it('answers the anon key as a user token with 403 bad_jwt (no subject)', async () => {
    const res = await getUser(`Bearer ${backend.anonKey}`)
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ error_code: 'bad_jwt' })
  })

  it('answers a signed-out session with 403 session_not_found', async () => {
    const { client, session } = await signedInUser(backend, 'gone@example.test')
    await client.auth.signOut()
    const res = await getUser(`Bearer ${session!.access_token}`)
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ error_code: 'session_not_found' })
  })
})
