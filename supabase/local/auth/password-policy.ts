/**
 * GoTrue's password strength check, in its order: longer than bcrypt's 72 bytes is a 400; then every
 * failed rule (minimum length from config, `password_requirements` character sets) joins one 422
 * weak_password with its reasons, as supabase-js's AuthWeakPasswordError reads them.
 */
import { httpError } from './errors'
import type { AuthSettings } from './settings'

export function assertStrongPassword(settings: AuthSettings, password: string) {
  // bcrypt reads only 72 bytes; GoTrue refuses longer passwords rather than silently truncating them.
  if (Buffer.byteLength(password) > 72) {
    throw httpError(400, 'validation_failed', 'Password cannot be longer than 72 characters')
  }
  const reasons: string[] = []
  const messages: string[] = []
  if (password.length < settings.minPasswordLength) {
    reasons.push('length')
    messages.push(`Password should be at least ${settings.minPasswordLength} characters.`)
  }
  const sets = settings.requiredCharacters
  if (sets.some((set) => ![...set].some((c) => password.includes(c)))) {
    reasons.push('characters')
    messages.push(`Password should contain at least one character of each: ${sets.join(', ')}.`)
  }
  if (reasons.length) throw httpError(422, 'weak_password', messages.join(' '), { weak_password: { reasons } })
}
