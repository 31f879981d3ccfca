/**
 * Passwords and one-time secrets. Passwords are bcrypt with the `$2a$` prefix, the one pgcrypto's
 * `crypt()` also verifies, so seed users made with `extensions.crypt(…, gen_salt('bf'))` and users made
 * here are interchangeable. Emailed tokens are stored only as hashes, GoTrue-style: sha224(email + otp).
 */
import { hash, verify } from '@node-rs/bcrypt'
import { createHash, randomBytes, randomInt } from 'node:crypto'

function bcryptCost(): number {
  const configured = Number(process.env.GROWLETTER_BCRYPT_COST)
  if (Number.isInteger(configured) && configured >= 4 && configured <= 31) return configured
  if (process.env.GROWLETTER_BCRYPT_COST !== undefined || process.env.NODE_ENV === 'test') return 4
  return 10
}

export async function hashPassword(password: string): Promise<string> {
  const hashed = await hash(password, { cost: bcryptCost(), version: '2a' })
  // Belt and braces: whatever the library produced, store the prefix pgcrypto understands.
  return hashed.replace(/^\$2[by]\$/, '$2a$')
}

let dummyHash: Promise<string> | undefined

/**
 * Verifies a password against a stored bcrypt hash. Without a usable hash (unknown user, passwordless
 * account) it still pays for one bcrypt round, so response time does not tell which accounts exist.
 */
export async function checkPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored || !stored.startsWith('$2')) {
    dummyHash ??= hashPassword('growletter-timing-equaliser')
    await verify(password, await dummyHash).catch(() => false)
    return false
  }
  return verify(password, stored).catch(() => false)
}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')
export const tokenHash = (email: string, otp: string) =>
  createHash('sha224')
    .update(email + otp)
    .digest('hex')

/** A numeric email OTP of the configured length ({{ .Token }} in templates). */
export function numericOtp(length: number): string {
  let otp = ''
  for (let i = 0; i < length; i++) otp += String(randomInt(10))
  return otp
}

/** Opaque refresh tokens and authorization codes. */
export const randomToken = (bytes = 24) => randomBytes(bytes).toString('base64url')
