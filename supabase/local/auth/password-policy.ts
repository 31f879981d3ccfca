/** GoTrue's password strength check: minimum length from config; 422 weak_password with reasons. */
import { httpError } from './errors'
import type { AuthSettings } from './settings'

export function assertStrongPassword(settings: AuthSettings, password: string) {
  if (password.length < settings.minPasswordLength) {
    throw httpError(422, 'weak_password', `Password should be at least ${settings.minPasswordLength} characters.`, {
      weak_password: { reasons: ['length'] },
    })
  }
  // bcrypt reads only 72 bytes; GoTrue refuses longer passwords rather than silently truncating them.
  if (Buffer.byteLength(password) > 72) {
    throw httpError(422, 'validation_failed', 'Password cannot be longer than 72 characters')
  }
}
