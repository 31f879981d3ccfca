/**
 * The PKCE flow: a client that sent `code_challenge` with signup, recover or otp gets `?code=` on the
 * redirect after the email link instead of tokens in the fragment, and trades the code plus its
 * verifier for a session at `POST /token?grant_type=pkce`.
 */
import { createHash, randomUUID } from 'node:crypto'
import type { Queryable } from '../../db/database'
import { randomToken } from '../crypto'
import { httpError, json } from '../errors'
import { issuerOf, type Route } from '../env'
import { readBody, str, type Body } from '../request'
import { startSession } from '../sessions'
import { findUserById } from '../users'

export type Pkce = { challenge: string; method: 's256' | 'plain' }

export function pkceParams(body: Body): Pkce | undefined {
  const challenge = str(body, 'code_challenge')
  if (!challenge) return undefined
  const method = (str(body, 'code_challenge_method') ?? 's256').toLowerCase()
  if (method !== 's256' && method !== 'plain')
    throw httpError(400, 'validation_failed', 'Unsupported code challenge method')
  return { challenge, method }
}

export async function createFlowState(db: Queryable, userId: string, pkce: Pkce, authMethod: string) {
  await db.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge, code_challenge_method, authentication_method,
       provider_type, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, 'email', now(), now())`,
    [randomUUID(), userId, randomToken(24), pkce.challenge, pkce.method, authMethod],
  )
}

/** The auth code of the user's newest pending PKCE flow, if the email link belongs to one. */
export async function pendingAuthCode(
  db: Queryable,
  userId: string,
  authMethod: string,
  maxAgeSeconds: number,
): Promise<string | undefined> {
  const r = await db.query<{ auth_code: string }>(
    `select auth_code from auth.flow_state
     where user_id = $1 and authentication_method = $2 and created_at > now() - make_interval(secs => $3)
     order by created_at desc limit 1`,
    [userId, authMethod, maxAgeSeconds],
  )
  return r.rows[0]?.auth_code
}

export const pkceGrant: Route = async (env, req) => {
  const body = readBody(req)
  const code = str(body, 'auth_code')
  const verifier = str(body, 'code_verifier')
  if (!code || !verifier)
    throw httpError(400, 'validation_failed', 'invalid request: both auth code and code verifier should be non-empty')
  const db = env.ctx.db
  const flow = (
    await db.query<{
      id: string
      user_id: string
      code_challenge: string
      code_challenge_method: string
      authentication_method: string
      created_at: Date
    }>('select * from auth.flow_state where auth_code = $1', [code])
  ).rows[0]
  if (!flow) throw httpError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found')
  if (Date.now() - new Date(flow.created_at).getTime() > env.settings.otpExpiry * 1000) {
    throw httpError(404, 'flow_state_expired', 'invalid flow state, flow state has expired')
  }
  const computed =
    flow.code_challenge_method === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url')
  if (computed !== flow.code_challenge)
    throw httpError(400, 'bad_code_verifier', 'code challenge does not match previously saved code verifier')
  await db.query('delete from auth.flow_state where id = $1', [flow.id])
  const user = await findUserById(db, flow.user_id)
  if (!user) throw httpError(404, 'user_not_found', 'User not found')
  return json(await startSession(issuerOf(env), user, flow.authentication_method, { ip: req.ip }))
}
