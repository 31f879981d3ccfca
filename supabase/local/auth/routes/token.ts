/**
 * POST /token: `password` sign-in, `refresh_token` rotation, `pkce` code exchange.
 * A wrong password and an unknown address get the same answer, so sign-in reveals no accounts.
 */
import { checkPassword } from '../crypto'
import { errors, httpError, json } from '../errors'
import { issuerOf, type Route } from '../env'
import { readBody, str } from '../request'
import { refreshSession, startSession } from '../sessions'
import { findUserByEmail, isBanned } from '../users'
import { pkceGrant } from './pkce'
import { fromIp } from '../rate-limit'

const passwordGrant: Route = async (env, req) => {
  const body = readBody(req)
  const email = str(body, 'email')?.trim()
  const password = str(body, 'password')
  if (!email || !password) {
    if (str(body, 'phone')) throw httpError(400, 'phone_provider_disabled', 'Phone logins are disabled')
    throw errors.validation('Either an email address or phone number and a password must be provided')
  }
  env.limiter.take('token', [req.ip, fromIp(req.ip, email)], env.settings.rateLimit.signInSignUps)
  const user = await findUserByEmail(env.ctx.db, email)
  const ok = await checkPassword(password, user?.encrypted_password)
  if (!user || !ok) throw errors.invalidCredentials()
  if (!user.email_confirmed_at && env.settings.confirmEmail) throw errors.emailNotConfirmed()
  if (isBanned(user)) throw httpError(400, 'user_banned', 'User is banned')
  return json(await startSession(issuerOf(env), user, 'password', { ip: req.ip, userAgent: req.headers['user-agent'] }))
}

const refreshGrant: Route = async (env, req) => {
  const token = str(readBody(req), 'refresh_token')
  if (!token) throw httpError(400, 'validation_failed', 'Refresh Token is required')
  env.limiter.take('refresh', [req.ip], env.settings.rateLimit.tokenRefresh)
  return json(await refreshSession(issuerOf(env), token))
}

export const token: Route = async (env, req) => {
  switch (req.query.get('grant_type')) {
    case 'password':
      return passwordGrant(env, req)
    case 'refresh_token':
      return refreshGrant(env, req)
    case 'pkce':
      return pkceGrant(env, req)
    default:
      throw httpError(400, 'validation_failed', 'unsupported_grant_type')
  }
}
