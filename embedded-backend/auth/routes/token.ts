/**
 * POST /token: `password` sign-in, `refresh_token` rotation, `pkce` code exchange.
 * A wrong password and an unknown address get the same answer, so sign-in reveals no accounts.
 * Password guesses are limited per IP, per IP and address, and per account across addresses
 * (RateLimiter.passwordFailed), so a guesser spread over many addresses meets a limit too.
 */
import { checkPassword } from '../crypto'
import { errors, httpError, json } from '../errors'
import { issuerOf, type Route } from '../env'
import { readBody, str } from '../request'
import { refreshSession, startSession } from '../sessions'
import { findUserByEmail, isBanned, normalizeEmail } from '../users'
import { idTokenGrant, web3Grant } from './disabled'
import { phonePasswordGrant } from './phone'
import { pkceGrant } from './pkce'
import { fromIp } from '../rate-limit'

const passwordGrant: Route = async (env, req) => {
  const body = readBody(req)
  const email = str(body, 'email')?.trim()
  const password = str(body, 'password')
  if (!email || !password) {
    const phone = str(body, 'phone')
    if (phone && password) return phonePasswordGrant(env, req, phone, password)
    throw errors.validation('Either an email address or phone number and a password must be provided')
  }
  // `[auth.email] enable_signup = false` is GoTrue's email provider switched off: no email logins at all.
  if (!env.settings.emailSignupEnabled) throw httpError(422, 'email_provider_disabled', 'Email logins are disabled')
  env.limiter.take('token', [req.ip, fromIp(req.ip, email)], env.settings.rateLimit.signInSignUps)
  const account = normalizeEmail(email)
  if (env.limiter.accountLocked(account, req.ip, env.settings.rateLimit.passwordFailuresPerAccount)) {
    throw errors.accountRateLimited()
  }
  const user = await findUserByEmail(env.ctx.db, email)
  const ok = await checkPassword(password, user?.encrypted_password)
  if (!user || !ok) {
    env.limiter.passwordFailed(account, req.ip)
    throw errors.invalidCredentials()
  }
  if (!user.email_confirmed_at && env.settings.confirmEmail) throw errors.emailNotConfirmed()
  if (isBanned(user)) throw httpError(400, 'user_banned', 'User is banned')
  env.limiter.signedIn(account, req.ip)
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
    case 'id_token':
      return idTokenGrant(env, req)
    case 'web3':
      return web3Grant(env, req)
    default:
      // GoTrue's code for this is invalid_credentials, odd as it is; supabase-js sees the same.
      throw httpError(400, 'invalid_credentials', 'unsupported_grant_type')
  }
}
