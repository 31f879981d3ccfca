/**
 * One-time email tokens kept in auth.users' token columns as GoTrue does: only sha224(email + otp) is
 * stored; the link carries that hash and the email body may show the numeric OTP. Issuing a new token
 * of a kind replaces the previous one, so only the newest link works, and resets the count of wrong OTPs.
 */
import type { Queryable } from '../db/database'
import { numericOtp, tokenHash } from './crypto'
import type { AuthSettings } from './settings'
import type { TokenColumn, UserRow } from './users'

const SENT_AT: Record<TokenColumn, string> = {
  confirmation_token: 'confirmation_sent_at',
  recovery_token: 'recovery_sent_at',
  email_change_token_new: 'email_change_sent_at',
  email_change_token_current: 'email_change_sent_at',
  reauthentication_token: 'reauthentication_sent_at',
}

export type IssuedToken = { otp: string; hash: string }

/** Stores a fresh token for `email` (the address the mail goes to) in `column`. */
export async function issueToken(
  db: Queryable,
  settings: AuthSettings,
  user: UserRow,
  column: TokenColumn,
  email: string,
): Promise<IssuedToken> {
  const otp = numericOtp(settings.otpLength)
  const hash = tokenHash(email.toLowerCase(), otp)
  await db.query(`update auth.users set ${column} = $2, ${SENT_AT[column]} = now(), updated_at = now() where id = $1`, [
    user.id,
    hash,
  ])
  // A new token gets the full allowance of guesses (verification.ts clears tokens at the limit).
  await db.query('delete from auth.otp_failures where user_id = $1', [user.id])
  return { otp, hash }
}

export async function clearToken(db: Queryable, userId: string, column: TokenColumn) {
  await db.query(`update auth.users set ${column} = '' where id = $1`, [userId])
}

export function isExpired(settings: AuthSettings, user: UserRow, column: TokenColumn): boolean {
  const sent = user[SENT_AT[column] as keyof UserRow] as Date | null
  return !sent || Date.now() - new Date(sent).getTime() > settings.otpExpiry * 1000
}

/** Seconds left before another email of this kind may be sent to the user (max_frequency). */
export function cooldownLeft(settings: AuthSettings, user: UserRow, column: TokenColumn): number {
  const sent = user[SENT_AT[column] as keyof UserRow] as Date | null
  if (!sent) return 0
  const left = settings.maxFrequencySeconds - (Date.now() - new Date(sent).getTime()) / 1000
  return left > 0 ? Math.ceil(left) : 0
}

export type VerifyType = 'signup' | 'invite' | 'recovery' | 'magiclink' | 'email_change' | 'email'

/** Which token columns a verification type may match, in GoTrue's order. */
export function columnsFor(type: VerifyType): TokenColumn[] {
  switch (type) {
    case 'signup':
    case 'invite':
      return ['confirmation_token']
    case 'recovery':
    case 'magiclink':
      return ['recovery_token']
    case 'email_change':
      return ['email_change_token_new', 'email_change_token_current']
    case 'email':
      return ['confirmation_token', 'recovery_token']
  }
}

export const VERIFY_TYPES: VerifyType[] = ['signup', 'invite', 'recovery', 'magiclink', 'email_change', 'email']

export function verifyLink(apiUrl: string, hash: string, type: string, redirectTo: string) {
  const q = new URLSearchParams({ token: hash, type, redirect_to: redirectTo })
  return `${apiUrl}/auth/v1/verify?${q.toString()}`
}
