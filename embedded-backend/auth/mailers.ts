/**
 * The auth emails: each issues its one-time token, builds the verify link and sends the rendered
 * template. They apply the two email limits GoTrue has: max_frequency per address and kind, and the
 * email_sent rate limit per IP and per address; and a limit per inbox (see inboxOf).
 */
import type { ApiRequest } from '../context'
import { httpError } from './errors'
import { cooldownLeft, issueToken, verifyLink } from './email-tokens'
import { sendAuthEmail, type EmailKind } from './emails'
import type { AuthEnv } from './env'
import { inboxOf } from './rate-limit'
import type { TokenColumn, UserRow } from './users'

type Mail = { kind: EmailKind; column: TokenColumn; type: string; to: string; newEmail?: string }

const tooSoon = (left: number) =>
  httpError(
    429,
    'over_email_send_rate_limit',
    `For security purposes, you can only request this after ${left} seconds.`,
  )

/** The email limits, counted whether the email is sent or withheld. */
function takeEmailLimits(env: AuthEnv, req: ApiRequest, to: string) {
  env.limiter.take('email', [req.ip, to], env.settings.rateLimit.emailSent, 'email')
  // Gmail dot, googlemail.com and +tag variants of one address are one inbox, however many accounts.
  env.limiter.take('inbox', [inboxOf(to)], env.settings.rateLimit.emailsPerInbox, 'email')
}

async function send(
  env: AuthEnv,
  req: ApiRequest,
  user: UserRow,
  mail: Mail,
  redirectTo: string,
  checkCooldown = true,
) {
  if (checkCooldown) {
    const left = cooldownLeft(env.settings, user, mail.column)
    if (left > 0) throw tooSoon(left)
  }
  takeEmailLimits(env, req, mail.to)
  const { otp, hash } = await issueToken(env.ctx.db, env.settings, user, mail.column, mail.to)
  await sendAuthEmail(env.ctx, env.settings, mail.kind, mail.to, {
    ConfirmationURL: verifyLink(env.ctx.apiUrl, hash, mail.type, redirectTo),
    Token: otp,
    TokenHash: hash,
    SiteURL: env.settings.siteUrl,
    Email: user.email ?? mail.to,
    NewEmail: mail.newEmail,
    RedirectTo: redirectTo,
    Data: user.raw_user_meta_data ?? {},
  })
}

const email = (user: UserRow) => user.email ?? ''

/**
 * An email that is not sent where the answer must look as if it were (a sign-up for a confirmed address, a
 * sign-in link for an unknown one): the same max_frequency cooldown and email limits, so a second request in a
 * second, or the sixth in five minutes, gets the 429 it would get for an address whose email went out.
 */
export function withholdEmail(env: AuthEnv, req: ApiRequest, to: string, column: TokenColumn) {
  const key = `${column} ${to.trim().toLowerCase()}`
  const left = env.limiter.cooldownLeft(key, env.settings.maxFrequencySeconds)
  if (left > 0) throw tooSoon(left)
  takeEmailLimits(env, req, to)
  env.limiter.startCooldown(key)
}

export const sendConfirmation = (
  env: AuthEnv,
  req: ApiRequest,
  user: UserRow,
  redirectTo: string,
  checkCooldown = true,
) =>
  send(
    env,
    req,
    user,
    { kind: 'confirmation', column: 'confirmation_token', type: 'signup', to: email(user) },
    redirectTo,
    checkCooldown,
  )

export const sendInvite = (env: AuthEnv, req: ApiRequest, user: UserRow, redirectTo: string) =>
  send(
    env,
    req,
    user,
    { kind: 'invite', column: 'confirmation_token', type: 'invite', to: email(user) },
    redirectTo,
    false,
  )

export const sendRecovery = (env: AuthEnv, req: ApiRequest, user: UserRow, redirectTo: string) =>
  send(env, req, user, { kind: 'recovery', column: 'recovery_token', type: 'recovery', to: email(user) }, redirectTo)

export const sendMagicLink = (env: AuthEnv, req: ApiRequest, user: UserRow, redirectTo: string) =>
  send(env, req, user, { kind: 'magic_link', column: 'recovery_token', type: 'magiclink', to: email(user) }, redirectTo)

export const sendReauthentication = (env: AuthEnv, req: ApiRequest, user: UserRow) =>
  send(
    env,
    req,
    user,
    { kind: 'reauthentication', column: 'reauthentication_token', type: 'reauthentication', to: email(user) },
    env.settings.siteUrl,
  )

/** Email change: the new address always confirms; with double confirmation the current one does too. */
export async function sendEmailChange(
  env: AuthEnv,
  req: ApiRequest,
  user: UserRow,
  newEmail: string,
  redirectTo: string,
) {
  const base = { kind: 'email_change' as const, type: 'email_change', newEmail }
  await send(env, req, user, { ...base, column: 'email_change_token_new', to: newEmail }, redirectTo)
  if (env.settings.doubleConfirmChanges && user.email) {
    await send(env, req, user, { ...base, column: 'email_change_token_current', to: user.email }, redirectTo, false)
  }
}
