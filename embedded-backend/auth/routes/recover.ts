/**
 * POST /recover (password reset email), POST /resend (confirmation or email change again) and
 * GET /reauthenticate (a code for sensitive changes). Unknown addresses get the same `{}` as known
 * ones, with the same cooldown and email limits (withholdEmail), so these endpoints cannot be used to discover
 * accounts.
 */
import { httpError, json } from '../errors'
import type { Route } from '../env'
import { sendConfirmation, sendEmailChange, sendReauthentication, sendRecovery, withholdEmail } from '../mailers'
import { readBody, requireUser, str } from '../request'
import { safeRedirect } from '../settings'
import { findUserByEmail, validateEmail } from '../users'
import { phoneReauthenticate, phoneResend } from './phone'
import { createFlowState, pkceParams } from './pkce'
import { fromIp } from '../rate-limit'

function emailOf(body: Record<string, unknown>) {
  const email = str(body, 'email')?.trim()
  if (!email) throw httpError(422, 'validation_failed', 'Password recovery requires an email')
  validateEmail(email)
  return email
}

const requireEmailProvider = (env: Parameters<Route>[0]) => {
  if (!env.settings.emailSignupEnabled) throw httpError(400, 'email_provider_disabled', 'Email logins are disabled')
}

export const recover: Route = async (env, req) => {
  requireEmailProvider(env)
  const body = readBody(req)
  const email = emailOf(body)
  env.limiter.take('recover', [req.ip, fromIp(req.ip, email)], env.settings.rateLimit.signInSignUps)
  const user = await findUserByEmail(env.ctx.db, email)
  if (!user) {
    withholdEmail(env, req, email, 'recovery_token')
    return json({})
  }
  const pkce = pkceParams(body)
  if (pkce) await createFlowState(env.ctx.db, user.id, pkce, 'recovery')
  await sendRecovery(
    env,
    req,
    user,
    safeRedirect(env.settings, req.query.get('redirect_to') ?? str(body, 'redirect_to')),
  )
  return json({})
}

export const resend: Route = async (env, req) => {
  const body = readBody(req)
  const type = str(body, 'type')
  const phone = str(body, 'phone')
  if ((type === 'sms' || type === 'phone_change') && phone) return phoneResend(env, req, phone, type)
  if (type !== 'signup' && type !== 'email_change') {
    throw httpError(400, 'validation_failed', 'Missing one of these types: signup, email_change, sms, phone_change')
  }
  requireEmailProvider(env)
  const email = emailOf(body)
  env.limiter.take('resend', [req.ip, fromIp(req.ip, email)], env.settings.rateLimit.signInSignUps)
  const redirectTo = safeRedirect(env.settings, req.query.get('redirect_to') ?? str(body, 'redirect_to'))
  const db = env.ctx.db
  if (type === 'signup') {
    const user = await findUserByEmail(db, email)
    if (user && !user.email_confirmed_at) await sendConfirmation(env, req, user, redirectTo)
    else withholdEmail(env, req, email, 'confirmation_token')
    return json({})
  }
  // email_change: the address named is the current one, with a change pending.
  const user = await findUserByEmail(db, email)
  if (user?.email_change) await sendEmailChange(env, req, user, user.email_change, redirectTo)
  return json({})
}

export const reauthenticate: Route = async (env, req) => {
  const { user } = await requireUser(env.ctx.db, req)
  // GoTrue: by email when the user has one, else by SMS; neither (an anonymous user) is a 400.
  if (!user.email && user.phone) return phoneReauthenticate(env, user)
  if (!user.email)
    throw httpError(400, 'validation_failed', 'Reauthentication requires the user to have an email or a phone number')
  await sendReauthentication(env, req, user)
  return json({})
}
