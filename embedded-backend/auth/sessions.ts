/**
 * Sessions, access tokens and refresh-token rotation. A session is a family of refresh tokens: each
 * refresh revokes the token used and issues its child. Presenting a revoked token again is allowed
 * only within the reuse interval (a client racing itself, answered with the current child); later it
 * means the token leaked, so the whole family (the session) is revoked, as GoTrue does.
 */
import { randomUUID } from 'node:crypto'
import { isIP } from 'node:net'
import type { Queryable } from '../db/database'
import { signAccessToken } from '../keys'
import { randomToken, sha256 } from './crypto'
import { httpError } from './errors'
import type { AuthSettings } from './settings'
import { appMetadataOf, userJson, type UserRow } from './users'

export type AmrEntry = { method: string; timestamp: number }
export type SessionRow = { id: string; user_id: string; aal: string; amr: AmrEntry[]; factor_id: string | null }

type Issuer = { db: Queryable; settings: AuthSettings; apiUrl: string }

/** The client's address as auth.sessions.ip (an inet) takes it: anything that is not an IP address is left out. */
export const inetOrNull = (ip: string | undefined) => (ip && isIP(ip) ? ip : null)

export async function startSession(
  { db, settings, apiUrl }: Issuer,
  user: UserRow,
  method: string,
  meta: { ip?: string; userAgent?: string } = {},
) {
  const id = randomUUID()
  // As GoTrue: the session at aal1 with its timestamps, and the sign-in method as its first amr claim.
  await db.query(
    `insert into auth.sessions (id, user_id, aal, ip, user_agent, created_at, updated_at)
     values ($1, $2, 'aal1', $3, $4, now(), now())`,
    [id, user.id, inetOrNull(meta.ip), meta.userAgent ?? null],
  )
  await addAmrClaim(db, id, method)
  const amr = await amrOf(db, id)
  await db.query('update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1', [user.id])
  await db.query("update auth.identities set last_sign_in_at = now() where user_id = $1 and provider = 'email'", [
    user.id,
  ])
  const refreshed = (await db.query<UserRow>('select * from auth.users where id = $1', [user.id])).rows[0]!
  const refreshToken = await newRefreshToken(db, refreshed.id, id, null)
  return sessionJson(
    { db, settings, apiUrl },
    refreshed,
    { id, user_id: user.id, aal: 'aal1', amr, factor_id: null },
    refreshToken,
  )
}

/** Records (or renews) how the session was authenticated: GoTrue's mfa_amr_claims, one row per method. */
async function addAmrClaim(db: Queryable, sessionId: string, method: string) {
  await db.query(
    `insert into auth.mfa_amr_claims (id, session_id, authentication_method, created_at, updated_at)
     values ($1, $2, $3, now(), now())
     on conflict (session_id, authentication_method) do update set updated_at = now()`,
    [randomUUID(), sessionId, method],
  )
}

/** The amr claim of the access token, newest method first, as GoTrue builds it from mfa_amr_claims. */
async function amrOf(db: Queryable, sessionId: string): Promise<AmrEntry[]> {
  const r = await db.query<{ method: string; timestamp: number }>(
    `select authentication_method as method, floor(extract(epoch from updated_at))::int as timestamp
     from auth.mfa_amr_claims where session_id = $1 order by updated_at desc, authentication_method`,
    [sessionId],
  )
  return r.rows
}

/**
 * A new refresh token of the session. GoTrue's columns, with the token's SHA-256 hash in `token` and its parent's
 * in `parent` (GoTrue stores the tokens themselves).
 */
async function newRefreshToken(db: Queryable, userId: string, sessionId: string, parentHash: string | null) {
  const token = randomToken(18)
  await db.query(
    `insert into auth.refresh_tokens (instance_id, token, parent, user_id, session_id, revoked, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, $3, $4, false, now(), now())`,
    [sha256(token), parentHash, userId, sessionId],
  )
  return token
}

export async function accessToken(issuer: Omit<Issuer, 'db'>, user: UserRow, session: SessionRow) {
  const iat = Math.floor(Date.now() / 1000)
  const exp = iat + issuer.settings.jwtExpiry
  const token = await signAccessToken(
    {
      aud: 'authenticated',
      exp,
      iat,
      iss: `${issuer.apiUrl}/auth/v1`,
      sub: user.id,
      email: user.email ?? '',
      phone: user.phone ?? '',
      app_metadata: appMetadataOf(user),
      user_metadata: user.raw_user_meta_data ?? {},
      role: 'authenticated',
      aal: session.aal,
      amr: session.amr,
      session_id: session.id,
      is_anonymous: user.is_anonymous === true,
    },
    issuer.settings.signingKey,
  )
  return { token, exp }
}

export async function sessionJson(issuer: Issuer, user: UserRow, session: SessionRow, refreshToken: string) {
  const { token, exp } = await accessToken(issuer, user, session)
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: issuer.settings.jwtExpiry,
    expires_at: exp,
    refresh_token: refreshToken,
    user: await userJson(issuer.db, user),
  }
}

type TokenRow = {
  id: string
  token: string
  session_id: string
  user_id: string
  revoked: boolean
  updated_at: Date
}

const invalidRefresh = () => httpError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found')

/** `grant_type=refresh_token`: rotate, or detect reuse and revoke the family. */
export async function refreshSession(issuer: Issuer, presented: string) {
  const { db, settings } = issuer
  const hash = sha256(presented)
  const row = (await db.query<TokenRow>('select * from auth.refresh_tokens where token = $1', [hash])).rows[0]
  if (!row) throw invalidRefresh()
  const session = await loadSession(db, row.session_id)
  const user = (await db.query<UserRow>('select * from auth.users where id = $1', [row.user_id])).rows[0]
  if (!session || !user) throw invalidRefresh()
  if (user.banned_until && new Date(user.banned_until) > new Date())
    throw httpError(400, 'user_banned', 'User is banned')

  if (row.revoked) {
    const age = (Date.now() - new Date(row.updated_at).getTime()) / 1000
    const child = (
      await db.query<TokenRow>('select * from auth.refresh_tokens where parent = $1 and revoked = false', [hash])
    ).rows[0]
    if (age <= settings.reuseInterval && child) {
      // A client racing itself (two tabs refreshing at once): only hashes are stored, so the live child
      // cannot be handed out again; a sibling in the same family serves the same purpose.
      const sibling = await newRefreshToken(db, user.id, session.id, hash)
      return sessionJson(issuer, user, session, sibling)
    }
    await db.query('delete from auth.sessions where id = $1', [session.id])
    throw httpError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used')
  }
  await revoke(db, hash)
  await db.query('update auth.sessions set refreshed_at = now(), updated_at = now() where id = $1', [session.id])
  const next = await newRefreshToken(db, user.id, session.id, hash)
  return sessionJson(issuer, user, session, next)
}

const revoke = (db: Queryable, hash: string) =>
  db.query('update auth.refresh_tokens set revoked = true, updated_at = now() where token = $1', [hash])

export async function loadSession(db: Queryable, id: unknown): Promise<SessionRow | undefined> {
  if (typeof id !== 'string' || !/^[0-9a-f-]{36}$/i.test(id)) return undefined
  const session = (
    await db.query<Omit<SessionRow, 'amr'>>(
      "select id, user_id, coalesce(aal::text, 'aal1') as aal, factor_id from auth.sessions where id = $1",
      [id],
    )
  ).rows[0]
  return session && { ...session, amr: await amrOf(db, session.id) }
}

/** Raises the session to aal2 after a verified factor and issues a fresh token pair within it. */
export async function upgradeSession(
  issuer: Issuer,
  user: UserRow,
  session: SessionRow,
  factorId: string,
  method: string,
) {
  await issuer.db.query("update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1", [
    session.id,
    factorId,
  ])
  await addAmrClaim(issuer.db, session.id, method)
  const amr = await amrOf(issuer.db, session.id)
  await issuer.db.query(
    'update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and revoked = false',
    [session.id],
  )
  const refreshToken = await newRefreshToken(issuer.db, user.id, session.id, null)
  return sessionJson(issuer, user, { ...session, aal: 'aal2', amr, factor_id: factorId }, refreshToken)
}

export async function endSessions(
  db: Queryable,
  userId: string,
  sessionId: string,
  scope: 'global' | 'local' | 'others',
) {
  if (scope === 'local') await db.query('delete from auth.sessions where id = $1', [sessionId])
  else if (scope === 'others')
    await db.query('delete from auth.sessions where user_id = $1 and id <> $2', [userId, sessionId])
  else await db.query('delete from auth.sessions where user_id = $1', [userId])
}
