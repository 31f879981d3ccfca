/**
 * POST /signup. With email confirmations on (the default) the answer is the user without a session
 * and a confirmation email; with them off, a session. Whether the address already had an account does
 * not show (issue 37): every answer is signup-answer.ts's user built from the request; a confirmed
 * address gets no email (as GoTrue: its owner can sign in or reset the password) but pays the same
 * bcrypt hash and the same email limits as a new one (mailers.ts withholdEmail); an unconfirmed one gets
 * the confirmation email again, so a person who lost the first email can simply sign up again.
 *
 * Unlike GoTrue (which keeps the first password "because we can't be sure of their claimed identity"),
 * a sign-up for an unconfirmed address with a different password clears the password: two people chose
 * passwords for one address and only the inbox can tell them apart, so the confirmation link (which
 * signs its clicker in) installs neither, whichever order they came in and whichever email is clicked;
 * the owner sets a password once in (pre-account takeover). The same password again keeps it, so a
 * person who lost the first email loses nothing. Either way the pending account's sessions and factors end.
 */
import { randomUUID } from 'node:crypto'
import type { ApiRequest } from '../../context'
import { checkPassword, hashPassword } from '../crypto'
import { cooldownLeft } from '../email-tokens'
import { httpError, json } from '../errors'
import { issuerOf, type AuthEnv, type Route } from '../env'
import { sendConfirmation, withholdEmail } from '../mailers'
import { assertStrongPassword } from '../password-policy'
import { obj, readBody, str } from '../request'
import { startSession } from '../sessions'
import { safeRedirect } from '../settings'
import { signupAnswerAsNew } from '../signup-answer'
import { findUserByEmail, insertUser, validateEmail } from '../users'
import { signInAnonymously } from './anonymous'
import { phoneSignup } from './phone'
import { createFlowState, pkceParams } from './pkce'
import { fromIp } from '../rate-limit'

export const signup: Route = async (env, req) => {
  const { settings, ctx } = env
  const body = readBody(req)
  const phone = str(body, 'phone')?.trim()
  const rawEmail = str(body, 'email')?.trim()
  // GoTrue's order: neither address is an anonymous sign-in (anonymous.ts); then the instance switch,
  // the password, the one-address rule, the provider switch, and last the address's format.
  if (!rawEmail && !phone) return signInAnonymously(env, req, body)
  // GoTrue limits sign-ups per IP before reading them (middleware); the address's own key is added below.
  env.limiter.take('signup', [req.ip], settings.rateLimit.signInSignUps)
  if (!settings.signupEnabled) throw httpError(422, 'signup_disabled', 'Signups not allowed for this instance')
  const password = str(body, 'password')
  if (!password) throw httpError(400, 'validation_failed', 'Signup requires a valid password')
  assertStrongPassword(settings, password)
  if (rawEmail && phone)
    throw httpError(400, 'validation_failed', 'Only an email address or phone number should be provided on signup.')
  if (phone) return phoneSignup(env, req, body, phone, password)
  if (!settings.emailSignupEnabled) throw httpError(400, 'email_provider_disabled', 'Email signups are disabled')
  const email = validateEmail(rawEmail)
  env.limiter.take('signup', [fromIp(req.ip, email)], settings.rateLimit.signInSignUps)
  const userMetadata = obj(body, 'data') ?? {}
  const redirectTo = safeRedirect(settings, req.query.get('redirect_to') ?? str(body, 'redirect_to'))
  const pkce = pkceParams(body)

  const existing = await findUserByEmail(ctx.db, email)
  if (existing) {
    if (existing.email_confirmed_at) {
      if (!settings.confirmEmail) throw httpError(422, 'user_already_exists', 'User already registered')
      return json(await answerForTakenAddress(env, req, email, password, userMetadata))
    }
    const left = cooldownLeft(settings, existing, 'confirmation_token')
    if (left > 0) {
      throw httpError(
        429,
        'over_email_send_rate_limit',
        `For security purposes, you can only request this after ${left} seconds.`,
      )
    }
    const samePassword = await checkPassword(password, existing.encrypted_password)
    if (pkce) await createFlowState(ctx.db, existing.id, pkce, 'email/signup')
    await sendConfirmation(env, req, existing, redirectTo, false)
    await ctx.db.transaction(async (tx) => {
      if (!samePassword) {
        await tx.query(
          "update auth.users set encrypted_password = '', updated_at = now() where id = $1 and email_confirmed_at is null",
          [existing.id],
        )
      }
      await tx.query('delete from auth.sessions where user_id = $1', [existing.id])
      await tx.query('delete from auth.mfa_factors where user_id = $1', [existing.id])
    })
    return json(await signupAnswerAsNew(ctx.db, existing.id, email, userMetadata))
  }

  const passwordHash = await hashPassword(password)
  const user = await ctx.db
    .transaction((tx) => insertUser(tx, { email, passwordHash, userMetadata, confirmed: !settings.confirmEmail }))
    .catch((error: unknown) => {
      // A concurrent sign-up for the same address won the race: answer as for an existing one.
      if ((error as { code?: string }).code === '23505') return null
      console.error('[auth] creating a user failed:', error)
      throw httpError(500, 'unexpected_failure', 'Database error saving new user')
    })
  if (!user) return json(await answerForTakenAddress(env, req, email, null, userMetadata))
  if (!settings.confirmEmail) {
    return json(
      await startSession(issuerOf(env), user, 'password', { ip: req.ip, userAgent: req.headers['user-agent'] }),
    )
  }
  if (pkce) await createFlowState(ctx.db, user.id, pkce, 'email/signup')
  await sendConfirmation(env, req, user, redirectTo, false)
  return json(await signupAnswerAsNew(ctx.db, user.id, email, userMetadata))
}

/**
 * A confirmed address signing up again: no email and nothing changed, but the work and the limits of a new
 * sign-up (a bcrypt hash at the cost a new password gets, the confirmation email's cooldown and limits), and a
 * new user's answer under a random id. `password` is null when the hash was already paid (a lost insert race).
 */
async function answerForTakenAddress(
  env: AuthEnv,
  req: ApiRequest,
  email: string,
  password: string | null,
  userMetadata: Record<string, unknown>,
) {
  if (password !== null) await hashPassword(password)
  withholdEmail(env, req, email, 'confirmation_token')
  return signupAnswerAsNew(env.ctx.db, randomUUID(), email, userMetadata)
}
