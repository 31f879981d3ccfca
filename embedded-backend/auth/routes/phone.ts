/**
 * Phone sign-up and sign-in, as GoTrue does them with `[auth.sms] enable_signup = true`: sign-up with a password
 * (a session at once when `enable_confirmations` is false, else an SMS code to confirm), passwordless sign-in by
 * SMS code (`/otp`), `/verify` with `type: 'sms'`, password sign-in by phone, and `/resend` of the code.
 *
 * The embedded backend sends no SMS. It serves the numbers of `[auth.sms.test_otp]` (the Supabase CLI's fixed
 * codes for test numbers, which GoTrue also never sends): their code is the configured one. Any other number is
 * refused with 400 `sms_send_failed` naming the setting, rather than pretending a message went out. With phone
 * sign-ups off (the default) every phone route answers GoTrue's `phone_provider_disabled`.
 * Like emailed codes, only sha224(phone + code) is stored, and wrong codes count towards MAX_OTP_GUESSES.
 */
import type { ApiRequest, ApiResponse } from '../../context'
import type { Db, Queryable } from '../../db/database'
import { checkPassword, hashPassword, tokenHash } from '../crypto'
import { errors, httpError, json } from '../errors'
import { issuerOf, type AuthEnv } from '../env'
import { obj, type Body } from '../request'
import { startSession } from '../sessions'
import { BLANK_TOKEN_COLUMNS, BLANK_TOKEN_VALUES, isBanned, userJson, type UserRow } from '../users'
import { countWrongGuess } from '../verification'

/** GoTrue's validatePhone: the leading `+` and spaces dropped, then E.164 digits. */
export function validatePhone(raw: string): string {
  const phone = raw.trim().replace(/^\+/, '').replace(/\s/g, '')
  if (!/^[1-9][0-9]{1,14}$/.test(phone))
    throw httpError(400, 'validation_failed', 'Invalid phone number format (E.164 required)')
  return phone
}

export async function findUserByPhone(env: AuthEnv, phone: string): Promise<UserRow | undefined> {
  return (await env.ctx.db.query<UserRow>('select * from auth.users where phone = $1 and is_sso_user = false', [phone]))
    .rows[0]
}

const requirePhoneProvider = (env: AuthEnv, what: 'signups' | 'logins') => {
  if (!env.settings.sms.enabled) {
    throw what === 'signups'
      ? httpError(400, 'phone_provider_disabled', 'Phone signups are disabled')
      : httpError(422, 'phone_provider_disabled', 'Phone logins are disabled')
  }
}

type CodeColumn = 'confirmation_token' | 'recovery_token' | 'phone_change_token' | 'reauthentication_token'
const SENT_AT: Record<
  CodeColumn,
  'confirmation_sent_at' | 'recovery_sent_at' | 'phone_change_sent_at' | 'reauthentication_sent_at'
> = {
  confirmation_token: 'confirmation_sent_at',
  recovery_token: 'recovery_sent_at',
  phone_change_token: 'phone_change_sent_at',
  reauthentication_token: 'reauthentication_sent_at',
}
const CODE_NAME: Record<CodeColumn, string> = {
  confirmation_token: 'confirmation',
  recovery_token: 'sms',
  phone_change_token: 'phone change',
  reauthentication_token: 'reauthentication',
}
type PhoneUser = UserRow & { phone_change_token: string | null; phone_change_sent_at: Date | null }

/**
 * "Sends" a code to `phone` (the user's number, or the new one of a phone change): stores its hash in `column`;
 * only test numbers have a code the backend can give out.
 */
async function sendCode(env: AuthEnv, user: UserRow, column: CodeColumn, phone = user.phone ?? ''): Promise<void> {
  const code = env.settings.sms.testOtp[phone]
  if (code === undefined) {
    throw httpError(
      400,
      'sms_send_failed',
      `Error sending ${CODE_NAME[column]} OTP to provider: the embedded backend sends no SMS; add ${phone} to [auth.sms.test_otp]`,
    )
  }
  const sentAt = SENT_AT[column]
  const sent = (user as PhoneUser)[sentAt]
  const last = sent ? new Date(sent).getTime() : 0
  const left = env.settings.sms.maxFrequencySeconds - (Date.now() - last) / 1000
  if (left > 0) {
    throw httpError(
      429,
      'over_sms_send_rate_limit',
      `For security purposes, you can only request this after ${Math.ceil(left)} seconds.`,
    )
  }
  await env.ctx.db.query(`update auth.users set ${column} = $2, ${sentAt} = now(), updated_at = now() where id = $1`, [
    user.id,
    tokenHash(phone, code),
  ])
  await env.ctx.db.query('delete from auth.otp_failures where user_id = $1', [user.id])
}

/** A user whose only address is `phone` (sign-up, SMS sign-in, the admin API). */
export async function insertPhoneUser(
  db: Db,
  phone: string,
  passwordHash: string,
  data: Record<string, unknown>,
  confirmed: boolean,
  appMetadata: Record<string, unknown> = {},
) {
  return db.transaction(async (tx) => {
    const r = await tx.query<UserRow>(
      `insert into auth.users (instance_id, id, aud, role, phone, encrypted_password, phone_confirmed_at,
         raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_sso_user, is_anonymous, ${BLANK_TOKEN_COLUMNS})
       values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, $2,
         case when $3 then now() end, $4, $5, now(), now(), false, false, ${BLANK_TOKEN_VALUES})
       returning *`,
      [
        phone,
        passwordHash,
        confirmed,
        JSON.stringify({ provider: 'phone', providers: ['phone'], ...appMetadata }),
        JSON.stringify(data),
      ],
    )
    const user = r.rows[0]!
    await tx.query(
      `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
       values ($1, $2, $3, 'phone', now(), now(), now())`,
      [user.id, user.id, JSON.stringify({ sub: user.id, phone, email_verified: false, phone_verified: confirmed })],
    )
    return user
  })
}

const meta = (req: ApiRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] })

/** POST /signup with `phone` and `password` (signup.ts has checked the password and the one-address rule). */
export async function phoneSignup(
  env: AuthEnv,
  req: ApiRequest,
  body: Body,
  rawPhone: string,
  password: string,
): Promise<ApiResponse> {
  requirePhoneProvider(env, 'signups')
  const phone = validatePhone(rawPhone)
  const existing = await findUserByPhone(env, phone)
  if (existing?.phone_confirmed_at) throw httpError(422, 'user_already_exists', 'User already registered')
  const user =
    existing ??
    (await insertPhoneUser(
      env.ctx.db,
      phone,
      await hashPassword(password),
      obj(body, 'data') ?? {},
      env.settings.sms.autoconfirm,
    ))
  if (env.settings.sms.autoconfirm) return json(await startSession(issuerOf(env), user, 'password', meta(req)))
  await sendCode(env, user, 'confirmation_token')
  return json(await userJson(env.ctx.db, (await findUserByPhone(env, phone))!))
}

/** POST /otp with `phone`: a sign-in code, creating the user first unless `create_user` is false. */
export async function phoneOtp(env: AuthEnv, req: ApiRequest, body: Body, rawPhone: string): Promise<ApiResponse> {
  if (!env.settings.sms.enabled) throw httpError(400, 'phone_provider_disabled', 'Unsupported phone provider')
  const phone = validatePhone(rawPhone)
  env.limiter.take('otp', [req.ip], env.settings.rateLimit.signInSignUps)
  let user = await findUserByPhone(env, phone)
  if (!user) {
    if (body.create_user === false || !env.settings.signupEnabled)
      throw httpError(422, 'otp_disabled', 'Signups not allowed for otp')
    user = await insertPhoneUser(env.ctx.db, phone, '', obj(body, 'data') ?? {}, env.settings.sms.autoconfirm)
  }
  await sendCode(env, user, user.phone_confirmed_at ? 'recovery_token' : 'confirmation_token')
  return json({ message_id: null })
}

/**
 * POST /resend with `phone` and `type: 'sms'` (the confirmation code again) or `type: 'phone_change'` (the code
 * to the new number of a pending change). A number with nothing pending gets the same answer, as in GoTrue.
 */
export async function phoneResend(
  env: AuthEnv,
  req: ApiRequest,
  rawPhone: string,
  type: 'sms' | 'phone_change',
): Promise<ApiResponse> {
  if (!env.settings.sms.enabled) throw httpError(400, 'phone_provider_disabled', 'Phone logins are disabled')
  const phone = validatePhone(rawPhone)
  env.limiter.take('resend', [req.ip], env.settings.rateLimit.signInSignUps)
  if (type === 'phone_change') {
    const pending = (
      await env.ctx.db.query<PhoneUser>(
        "select * from auth.users where phone_change = $1 and phone_change <> '' and is_sso_user = false",
        [phone],
      )
    ).rows[0]
    if (pending) await sendCode(env, pending, 'phone_change_token', phone)
    return json({ message_id: null })
  }
  const user = await findUserByPhone(env, phone)
  if (!user || user.phone_confirmed_at) return json({ message_id: null })
  await sendCode(env, user, 'confirmation_token')
  return json({ message_id: null })
}

/** GET /reauthenticate for a user with a number and no address: the code goes by SMS (test numbers only). */
export async function phoneReauthenticate(env: AuthEnv, user: UserRow): Promise<ApiResponse> {
  await sendCode(env, user, 'reauthentication_token')
  return json({})
}

/** POST /verify with `phone`, `token` and `type: 'sms'`: confirms the number and signs in. */
export async function phoneVerify(env: AuthEnv, req: ApiRequest, rawPhone: string, code: string): Promise<ApiResponse> {
  const phone = validatePhone(rawPhone)
  env.limiter.take('verify', [req.ip], env.settings.rateLimit.tokenVerifications)
  const db = env.ctx.db
  const user = await db.transaction(async (tx) => {
    const found = (
      await tx.query<UserRow>('select * from auth.users where phone = $1 and is_sso_user = false for update', [phone])
    ).rows[0]
    if (!found) return null
    const hash = tokenHash(phone, code.trim())
    const column =
      found.confirmation_token === hash ? 'confirmation_token' : found.recovery_token === hash ? 'recovery_token' : null
    const sentAt = column === 'confirmation_token' ? found.confirmation_sent_at : found.recovery_sent_at
    if (!column || !sentAt || Date.now() - new Date(sentAt).getTime() > env.settings.sms.otpExpiry * 1000) {
      await countWrongGuess(tx, [found.id])
      return null
    }
    await tx.query('delete from auth.otp_failures where user_id = $1', [found.id])
    await tx.query(
      `update auth.users set phone_confirmed_at = coalesce(phone_confirmed_at, now()), ${column} = '', updated_at = now() where id = $1`,
      [found.id],
    )
    await tx.query(
      `update auth.identities set identity_data = identity_data || '{"phone_verified": true}'::jsonb where user_id = $1 and provider = 'phone'`,
      [found.id],
    )
    return (await tx.query<UserRow>('select * from auth.users where id = $1', [found.id])).rows[0]!
  })
  if (!user) throw errors.otpExpired()
  if (isBanned(user)) throw httpError(400, 'user_banned', 'User is banned')
  return json(await startSession(issuerOf(env), user, 'otp', meta(req)))
}

/** grant_type=password with `phone`: as by email, with GoTrue's `phone_not_confirmed`. */
export async function phonePasswordGrant(
  env: AuthEnv,
  req: ApiRequest,
  rawPhone: string,
  password: string,
): Promise<ApiResponse> {
  requirePhoneProvider(env, 'logins')
  const phone = validatePhone(rawPhone)
  env.limiter.take('token', [req.ip], env.settings.rateLimit.signInSignUps)
  const user = await findUserByPhone(env, phone)
  if (!user || !(await checkPassword(password, user.encrypted_password))) throw errors.invalidCredentials()
  if (!user.phone_confirmed_at && !env.settings.sms.autoconfirm)
    throw httpError(400, 'phone_not_confirmed', 'Phone not confirmed')
  if (isBanned(user)) throw httpError(400, 'user_banned', 'User is banned')
  return json(await startSession(issuerOf(env), user, 'password', meta(req)))
}

/**
 * PUT /user with `phone`: GoTrue's phone change. With confirmations off the number changes at once; else a code
 * goes to the new number and `verify` with `type: 'phone_change'` completes it.
 */
export async function requestPhoneChange(env: AuthEnv, user: UserRow, rawPhone: string): Promise<void> {
  const phone = validatePhone(rawPhone)
  if (phone === user.phone) return
  const taken = await findUserByPhone(env, phone)
  if (taken && taken.id !== user.id)
    throw httpError(422, 'phone_exists', 'A user with this phone number has already been registered')
  const db = env.ctx.db
  if (env.settings.sms.autoconfirm) {
    await db.query('update auth.users set phone = $2, phone_confirmed_at = now(), updated_at = now() where id = $1', [
      user.id,
      phone,
    ])
    await upsertPhoneIdentity(db, user.id, phone)
    return
  }
  await sendCode(env, user, 'phone_change_token', phone)
  await db.query('update auth.users set phone_change = $2 where id = $1', [user.id, phone])
}

async function upsertPhoneIdentity(db: Queryable, userId: string, phone: string) {
  const data = JSON.stringify({ sub: userId, phone, email_verified: false, phone_verified: true })
  const updated = await db.query(
    "update auth.identities set identity_data = $2 where user_id = $1 and provider = 'phone' returning id",
    [userId, data],
  )
  if (!updated.rows.length) {
    await db.query(
      `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
       values ($1, $2, $3, 'phone', now(), now(), now())`,
      [userId, userId, data],
    )
  }
}

/** POST /verify with `phone` (the new number), `token` and `type: 'phone_change'`. */
export async function phoneChangeVerify(
  env: AuthEnv,
  req: ApiRequest,
  rawPhone: string,
  code: string,
): Promise<ApiResponse> {
  const phone = validatePhone(rawPhone)
  env.limiter.take('verify', [req.ip], env.settings.rateLimit.tokenVerifications)
  const user = await env.ctx.db.transaction(async (tx) => {
    const found = (await tx.query<PhoneUser>('select * from auth.users where phone_change = $1 for update', [phone]))
      .rows[0]
    if (!found) return null
    const sent = found.phone_change_sent_at
    if (
      found.phone_change_token !== tokenHash(phone, code.trim()) ||
      !sent ||
      Date.now() - new Date(sent).getTime() > env.settings.sms.otpExpiry * 1000
    ) {
      await countWrongGuess(tx, [found.id])
      // countWrongGuess clears the emailed tokens and forgets the count when the limit is reached; the code of
      // a phone change goes with them.
      const counting =
        (await tx.query('select 1 from auth.otp_failures where user_id = $1', [found.id])).rows.length > 0
      if (!counting) await tx.query("update auth.users set phone_change_token = '' where id = $1", [found.id])
      return null
    }
    await tx.query('delete from auth.otp_failures where user_id = $1', [found.id])
    await tx.query(
      "update auth.users set phone = phone_change, phone_confirmed_at = now(), phone_change = '', phone_change_token = '', updated_at = now() where id = $1",
      [found.id],
    )
    await upsertPhoneIdentity(tx, found.id, phone)
    return (await tx.query<UserRow>('select * from auth.users where id = $1', [found.id])).rows[0]!
  })
  if (!user) throw errors.otpExpired()
  return json(await startSession(issuerOf(env), user, 'phone_change', meta(req)))
}

/** Adds a phone to a user made with an email (the admin API given both), with its identity. */
export async function addPhone(db: Queryable, user: UserRow, phone: string, confirmed: boolean) {
  await db.query(
    `update auth.users set phone = $2, phone_confirmed_at = case when $3 then now() end,
       raw_app_meta_data = jsonb_set(coalesce(raw_app_meta_data, '{}'::jsonb), '{providers}', '["email", "phone"]'::jsonb)
     where id = $1`,
    [user.id, phone, confirmed],
  )
  await upsertPhoneIdentity(db, user.id, phone)
}
