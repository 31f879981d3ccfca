/**
 * POST /otp: passwordless sign-in by email. A known, confirmed address gets a magic link (its email also shows the
 * OTP); an unconfirmed one gets the confirmation email; an unknown one is signed up first unless `create_user` is
 * false (or sign-ups are off): then no email is sent, but the answer is a known address's `{}`, with its cooldown
 * and email limits (withholdEmail). GoTrue answers that case 422 otp_disabled, which tells anyone whether an
 * address has an account (supabase/auth#1547, open); this backend departs from it on purpose (issue 37,
 * docs/decisions.md "Auth answers as GoTrue, and never tells who has an account").
 *
 * Asking for a sign-in link for an unconfirmed address clears the password someone registered it with: the person
 * who confirms through that link owns the inbox, not necessarily that password (pre-account takeover); they set
 * their own password afterwards.
 */
import { httpError, json } from '../errors'
import type { Route } from '../env'
import { sendConfirmation, sendMagicLink, withholdEmail } from '../mailers'
import { obj, readBody, str } from '../request'
import { safeRedirect } from '../settings'
import { findUserByEmail, insertUser, validateEmail } from '../users'
import { phoneOtp } from './phone'
import { createFlowState, pkceParams } from './pkce'
import { fromIp } from '../rate-limit'

export const otp: Route = async (env, req) => {
  const body = readBody(req)
  const email = str(body, 'email')?.trim()
  if (!email) {
    const phone = str(body, 'phone')
    if (phone) return phoneOtp(env, req, body, phone)
    throw httpError(400, 'validation_failed', 'An email address or phone number is required')
  }
  validateEmail(email)
  if (!env.settings.emailSignupEnabled) throw httpError(422, 'email_provider_disabled', 'Email logins are disabled')
  env.limiter.take('otp', [req.ip, fromIp(req.ip, email)], env.settings.rateLimit.signInSignUps)
  const redirectTo = safeRedirect(env.settings, req.query.get('redirect_to') ?? str(body, 'redirect_to'))
  const db = env.ctx.db
  let user = await findUserByEmail(db, email)
  if (!user) {
    if (body.create_user === false || !env.settings.signupEnabled) {
      withholdEmail(env, req, email, 'recovery_token')
      return json({})
    }
    user = await db.transaction((tx) =>
      insertUser(tx, { email, passwordHash: null, userMetadata: obj(body, 'data') ?? {}, confirmed: false }),
    )
  }
  const pkce = pkceParams(body)
  if (pkce) await createFlowState(db, user.id, pkce, user.email_confirmed_at ? 'magiclink' : 'email/signup')
  if (user.email_confirmed_at) await sendMagicLink(env, req, user, redirectTo)
  else {
    await sendConfirmation(env, req, user, redirectTo)
    await db.query(
      "update auth.users set encrypted_password = '', updated_at = now() where id = $1 and email_confirmed_at is null",
      [user.id],
    )
    await db.query('delete from auth.sessions where user_id = $1', [user.id])
  }
  return json({})
}
