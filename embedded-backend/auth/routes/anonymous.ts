/**
 * Anonymous sign-ins: POST /signup with neither email nor phone, as GoTrue routes it. Off unless
 * `[auth] enable_anonymous_sign_ins = true`; off, the answer is GoTrue's 422 `anonymous_provider_disabled`.
 * On, a user without email or password is created (`is_anonymous: true`, empty `app_metadata`)
 * and signed in; the access token carries `is_anonymous: true`, so RLS can tell such users apart.
 */
import type { ApiRequest } from '../../context'
import { httpError, json } from '../errors'
import { issuerOf, type AuthEnv } from '../env'
import { obj, type Body } from '../request'
import { startSession } from '../sessions'
import { BLANK_TOKEN_COLUMNS, BLANK_TOKEN_VALUES, type UserRow } from '../users'

export async function signInAnonymously(env: AuthEnv, req: ApiRequest, body: Body) {
  const { settings, ctx } = env
  if (!settings.anonymousEnabled) throw httpError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled')
  if (!settings.signupEnabled) throw httpError(422, 'signup_disabled', 'Signups not allowed for this instance')
  env.limiter.take('anonymous', [req.ip], settings.rateLimit.anonymousUsers)
  const user = await ctx.db
    .transaction(async (tx) => {
      const r = await tx.query<UserRow>(
        `insert into auth.users (instance_id, id, aud, role, email, phone, encrypted_password, is_anonymous,
           raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_sso_user, ${BLANK_TOKEN_COLUMNS})
         values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
           null, null, '', true, $1, $2, now(), now(), false, ${BLANK_TOKEN_VALUES})
         returning *`,
        ['{}', JSON.stringify(obj(body, 'data') ?? {})],
      )
      return r.rows[0]!
    })
    .catch((error: unknown) => {
      console.error('[auth] creating an anonymous user failed:', error)
      throw httpError(500, 'unexpected_failure', 'Database error creating anonymous user')
    })
  return json(
    await startSession(issuerOf(env), user, 'anonymous', { ip: req.ip, userAgent: req.headers['user-agent'] }),
  )
}
