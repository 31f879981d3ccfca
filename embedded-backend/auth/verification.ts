/**
 * Checking an emailed token, by its hash (links, `token_hash`) or by address and OTP, and applying
 * what it proves: a confirmed address, a recovery or magic-link sign-in, or one step of an email change.
 * A six-digit OTP can be guessed, so wrong OTPs are counted per account: at MAX_OTP_GUESSES every
 * outstanding token of the account (its OTPs and links) is cleared and a new one must be requested.
 */
import type { Db, Queryable } from '../db/database'
import { tokenHash } from './crypto'
import { columnsFor, isExpired, type VerifyType } from './email-tokens'
import { errors } from './errors'
import type { AuthSettings } from './settings'
import { findUserByEmail, findUserById, findUserByToken, type TokenColumn, type UserRow } from './users'

export type Proof = { tokenHash: string } | { email: string; otp: string }

export type VerifyOutcome = { kind: 'session'; user: UserRow; method: string } | { kind: 'partial'; message: string }

export const PARTIAL_EMAIL_CHANGE = 'Confirmation link accepted. Please proceed to confirm link sent to the other email'

const AMR: Record<VerifyType, string> = {
  signup: 'otp',
  invite: 'invite',
  recovery: 'recovery',
  magiclink: 'magiclink',
  email_change: 'email_change',
  email: 'otp',
}

async function match(
  db: Queryable,
  type: VerifyType,
  proof: Proof,
): Promise<{ user: UserRow; column: TokenColumn } | undefined> {
  for (const column of columnsFor(type)) {
    if ('tokenHash' in proof) {
      const user = await findUserByToken(db, column, proof.tokenHash)
      if (user) return { user, column }
      continue
    }
    // By OTP: the hash was made from the address the email went to (the new one for email_change_token_new).
    const byEmail = await findUserByEmail(db, proof.email)
    const byNewEmail =
      column === 'email_change_token_new'
        ? (await db.query<UserRow>('select * from auth.users where lower(email_change) = lower($1)', [proof.email]))
            .rows[0]
        : undefined
    for (const user of [byEmail, byNewEmail]) {
      if (!user) continue
      const address = column === 'email_change_token_new' ? (user.email_change ?? '') : (user.email ?? '')
      if (user[column] && user[column] === tokenHash(address.toLowerCase(), proof.otp)) return { user, column }
    }
  }
  return undefined
}

export const MAX_OTP_GUESSES = 5

/**
 * Locks the accounts an address can name (its own, or the pending new address of an email change), so
 * concurrent guesses for one address are judged one after another and exactly MAX_OTP_GUESSES count.
 */
async function lockAccounts(tx: Queryable, type: VerifyType, email: string): Promise<string[]> {
  // The pending-new-address lookup only where it can match, so other OTPs stay on the email index.
  const r = await tx.query<{ id: string }>(
    `select id from auth.users where (lower(email) = lower($1) and is_sso_user = false)
     ${type === 'email_change' ? 'or lower(email_change) = lower($1)' : ''} order by id for update`,
    [email.trim()],
  )
  return r.rows.map((row) => row.id)
}

/** One wrong OTP for each account; the one that reaches the limit clears every emailed token it has. */
export async function countWrongGuess(tx: Queryable, userIds: string[]): Promise<void> {
  for (const id of userIds) {
    const r = await tx.query<{ failures: number }>(
      `insert into auth.otp_failures (user_id, failures) values ($1, 1)
       on conflict (user_id) do update set failures = auth.otp_failures.failures + 1, updated_at = now()
       returning failures`,
      [id],
    )
    if ((r.rows[0]?.failures ?? 0) >= MAX_OTP_GUESSES) {
      await tx.query(
        `update auth.users set confirmation_token = '', recovery_token = '', email_change_token_new = '',
           email_change_token_current = '', reauthentication_token = '', updated_at = now() where id = $1`,
        [id],
      )
      await tx.query('delete from auth.otp_failures where user_id = $1', [id])
    }
  }
}

export async function verifyEmailToken(
  db: Db,
  settings: AuthSettings,
  type: VerifyType,
  proof: Proof,
): Promise<VerifyOutcome> {
  // The wrong guess is committed before the error is answered, so it is a result, not a throw.
  const outcome = await db.transaction(async (tx) => {
    const guessed = 'otp' in proof ? await lockAccounts(tx, type, proof.email) : []
    const found = await match(tx, type, proof)
    if (!found || isExpired(settings, found.user, found.column)) {
      await countWrongGuess(tx, guessed)
      return null
    }
    await tx.query('delete from auth.otp_failures where user_id = $1', [found.user.id])
    return apply(tx, settings, type, found)
  })
  if (!outcome) throw errors.otpExpired()
  return outcome
}

async function apply(
  db: Queryable,
  settings: AuthSettings,
  type: VerifyType,
  { user, column }: { user: UserRow; column: TokenColumn },
): Promise<VerifyOutcome> {
  if (column === 'confirmation_token') {
    await db.query(
      "update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), confirmation_token = '', updated_at = now() where id = $1",
      [user.id],
    )
    await markIdentityVerified(db, user.id)
  } else if (column === 'recovery_token') {
    // A recovery or magic link proves the address too.
    await db.query(
      "update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), recovery_token = '', updated_at = now() where id = $1",
      [user.id],
    )
    await markIdentityVerified(db, user.id)
  } else {
    const needsBoth =
      settings.doubleConfirmChanges && (user.email_change_confirm_status ?? 0) === 0 && Boolean(user.email)
    if (needsBoth) {
      await db.query(`update auth.users set ${column} = '', email_change_confirm_status = 1 where id = $1`, [user.id])
      return { kind: 'partial', message: PARTIAL_EMAIL_CHANGE }
    }
    await applyEmailChange(db, user)
  }
  return { kind: 'session', user: (await findUserById(db, user.id))!, method: AMR[type] }
}

async function markIdentityVerified(db: Queryable, userId: string) {
  await db.query(
    "update auth.identities set identity_data = identity_data || '{\"email_verified\": true}'::jsonb, updated_at = now() where user_id = $1 and provider = 'email'",
    [userId],
  )
}

async function applyEmailChange(db: Queryable, user: UserRow) {
  const next = (user.email_change ?? '').toLowerCase()
  await db.query(
    `update auth.users set email = $2, email_change = '', email_change_token_new = '', email_change_token_current = '',
       email_change_confirm_status = 0, email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
     where id = $1`,
    [user.id, next],
  )
  await db.query(
    `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', true), updated_at = now()
     where user_id = $1 and provider = 'email'`,
    [user.id, next],
  )
}

/**
 * The reauthentication code sent for a password change is an email OTP too: checked under the account's
 * lock, and a wrong one counts towards MAX_OTP_GUESSES like any other.
 */
export async function checkReauthenticationNonce(
  db: Db,
  settings: AuthSettings,
  userId: string,
  nonce: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const user = (await tx.query<UserRow>('select * from auth.users where id = $1 for update', [userId])).rows[0]
    const valid =
      Boolean(user?.reauthentication_token) &&
      // The code went to the address, or by SMS to the number of a user without one (routes/phone.ts).
      user!.reauthentication_token ===
        tokenHash(user!.email ? user!.email.toLowerCase() : (user!.phone ?? ''), nonce) &&
      !isExpired(settings, user!, 'reauthentication_token')
    if (!valid) await countWrongGuess(tx, [userId])
    return valid
  })
}
