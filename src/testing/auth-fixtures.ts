/**
 * Auth server answers shaped like GoTrue's, for the account flow tests: users, sessions (with a JWT that
 * supabase-js can decode, carrying `aal`), and the error body the auth server sends.
 */
import { http, HttpResponse } from 'msw'
import { restUrl, server } from './msw-server'

const base64url = (value: object) =>
  btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')

export type FixtureUser = {
  id: string
  email: string
  userType?: 'advertiser' | 'publisher' | 'admin'
  confirmed?: boolean
  metadata?: Record<string, unknown>
  factors?: { id: string; status: 'verified' | 'unverified'; friendly_name?: string }[]
}

export function authUser({
  id,
  email,
  userType = 'advertiser',
  confirmed = true,
  metadata,
  factors = [],
}: FixtureUser) {
  const now = new Date().toISOString()
  return {
    id,
    aud: 'authenticated',
    role: 'authenticated',
    email,
    email_confirmed_at: confirmed ? now : null,
    phone: '',
    confirmed_at: confirmed ? now : null,
    last_sign_in_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: { user_type: userType, ...metadata },
    identities: [{ id, user_id: id, provider: 'email', identity_data: { sub: id, email } }],
    factors: factors.map((factor) => ({
      id: factor.id,
      friendly_name: factor.friendly_name ?? 'Authenticator app',
      factor_type: 'totp',
      status: factor.status,
      created_at: now,
      updated_at: now,
    })),
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  }
}

export function accessToken(userId: string, aal: 'aal1' | 'aal2' = 'aal1') {
  const exp = Math.floor(Date.now() / 1000) + 3600
  const claims = {
    sub: userId,
    role: 'authenticated',
    aud: 'authenticated',
    exp,
    aal,
    amr: [{ method: 'password', timestamp: exp - 3600 }],
  }
  return `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(claims)}.c2lnbmF0dXJl`
}

export function authSession(user: FixtureUser, aal: 'aal1' | 'aal2' = 'aal1') {
  return {
    access_token: accessToken(user.id, aal),
    token_type: 'bearer',
    expires_in: 3600,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    refresh_token: `refresh-${user.id}`,
    user: authUser(user),
  }
}

/** GoTrue's error body; `extra` adds fields such as `weak_password: { reasons }`. */
export function authError(status: number, code: string, msg: string, extra: Record<string, unknown> = {}) {
  return HttpResponse.json(
    { code: status, error_code: code, msg, ...extra },
    { status, headers: { 'X-Supabase-Api-Version': '2024-01-01' } },
  )
}

/** What the shell asks after any sign-in: the profile's type and the wallet (answered, not under test). */
export function signedInBackground(user: FixtureUser) {
  server.use(
    http.get(restUrl('profiles'), () => HttpResponse.json([{ user_type: user.userType ?? 'advertiser' }])),
    http.post(restUrl('rpc/ensure_wallet_exists'), () => HttpResponse.json({ id: 'w1', user_id: user.id, balance: 0 })),
    http.post(restUrl('rpc/claim_signup_bonus'), () => HttpResponse.json({ paid: false, balance: 0 })),
  )
}

/**
 * Dashboards other helpers own load their own data; flows that end there answer it with empty lists.
 * The profile lookup falls through to the handler the test set for it.
 */
export function emptyDashboards() {
  server.use(
    http.get(restUrl(':table'), ({ params }) =>
      params.table === 'profiles' ? undefined : HttpResponse.json([], { headers: { 'Content-Range': '*/0' } }),
    ),
    http.head(restUrl(':table'), () => new HttpResponse(null, { headers: { 'Content-Range': '*/0' } })),
    http.post(restUrl('rpc/:fn'), () => HttpResponse.json(null)),
    // Read-only functions are called by GET (`{ get: true }`).
    http.get(restUrl('rpc/:fn'), () => HttpResponse.json(null)),
  )
}

export const ADVERTISER: FixtureUser = {
  id: '11111111-1111-4111-8111-111111111111',
  email: 'ada@example.com',
  userType: 'advertiser',
}
export const PUBLISHER: FixtureUser = {
  id: '22222222-2222-4222-8222-222222222222',
  email: 'pat@example.com',
  userType: 'publisher',
}

/** Puts a session for this user where supabase-js looks for it on start (the test URL's storage key). */
export function storeSession(user: FixtureUser, aal: 'aal1' | 'aal2' = 'aal1') {
  const session = authSession(user, aal)
  localStorage.setItem('sb-supabase-auth-token', JSON.stringify(session))
  return session
}
