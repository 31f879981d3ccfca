/**
 * Reading an auth request: its JSON body, and the user behind its bearer token. The gateway only
 * checked the apikey; user tokens are verified here, and their session must still exist (a logged-out
 * session's access token stops working at once, as on hosted Supabase).
 */
import type { ApiRequest } from '../context'
import type { Queryable } from '../db/database'
import { verifyJwt, type JwtClaims } from '../keys'
import { errors, httpError } from './errors'
import { loadSession, type SessionRow } from './sessions'
import { findUserById, type UserRow } from './users'

export type Body = Record<string, unknown>

export function readBody(req: ApiRequest): Body {
  if (req.body.length === 0) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(req.body.toString('utf8'))
  } catch {
    throw errors.badJson()
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw errors.badJson()
  return parsed as Body
}

export const str = (body: Body, key: string): string | undefined =>
  typeof body[key] === 'string' ? (body[key] as string) : undefined

export const obj = (body: Body, key: string): Record<string, unknown> | undefined => {
  const v = body[key]
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined
}

export function bearer(req: ApiRequest): string | undefined {
  const header = req.headers.authorization ?? ''
  const m = /^bearer\s+(\S+)$/i.exec(header.trim())
  return m?.[1]
}

export async function verifiedClaims(req: ApiRequest): Promise<JwtClaims> {
  const token = bearer(req)
  if (!token) throw errors.noAuthorization()
  const result = await verifyJwt(token)
  if (!result.ok)
    throw errors.badJwt(
      result.reason === 'expired' ? 'token has invalid claims: token is expired' : 'signature is invalid',
    )
  return result.claims
}

export type Authenticated = { user: UserRow; session: SessionRow; claims: JwtClaims }

export async function requireUser(db: Queryable, req: ApiRequest): Promise<Authenticated> {
  const claims = await verifiedClaims(req)
  if (typeof claims.sub !== 'string' || !claims.sub) throw errors.badJwt('invalid claim: missing sub claim')
  const user = await findUserById(db, claims.sub)
  if (!user) throw httpError(403, 'user_not_found', 'User from sub claim in JWT does not exist')
  const session = await loadSession(db, claims.session_id)
  if (!session || session.user_id !== user.id) throw errors.sessionNotFound()
  return { user, session, claims }
}

/** The admin API is for the service role only (its key as bearer token, as supabase-js sends it). */
export async function requireServiceRole(req: ApiRequest): Promise<void> {
  const claims = await verifiedClaims(req)
  if (claims.role !== 'service_role') throw errors.notAdmin()
}
