/**
 * GoTrue's password strength check, in its order: longer than bcrypt's 72 bytes is a 400; then every
 * failed rule (minimum length from config, `password_requirements` character sets, and a password on the
 * list of common and leaked ones) joins one 422 weak_password with its reasons (`length`, `characters`,
 * `pwned`), as supabase-js's AuthWeakPasswordError reads them. The rules and the words are the shared
 * module's (supabase/functions/_shared/rules/password.ts), which the SPA's forms check too.
 *
 * The list stands in for hosted GoTrue's HaveIBeenPwned check (`pwned`, the same reason and message),
 * which needs the network; it is always on here.
 */
import { isLeakedPassword } from '../../supabase/functions/_shared/rules/leaked-passwords.ts'
import {
  goTrueWeakPasswordMessage,
  PASSWORD_MAX_BYTES,
  passwordBytes,
  passwordRuleReasons,
  type WeakPasswordReason,
} from '../../supabase/functions/_shared/rules/password.ts'
import { httpError } from './errors'
import type { AuthSettings } from './settings'

/** The reasons GoTrue would give for `password` under `settings`, in its order; none when it is strong enough. */
export function weakPasswordReasons(settings: AuthSettings, password: string): WeakPasswordReason[] {
  const reasons = passwordRuleReasons(password, settings.minPasswordLength, settings.requiredCharacters)
  if (isLeakedPassword(password)) reasons.push('pwned')
  return reasons
}

export function assertStrongPassword(settings: AuthSettings, password: string) {
  // bcrypt reads only 72 bytes; GoTrue refuses longer passwords rather than silently truncating them.
  if (passwordBytes(password) > PASSWORD_MAX_BYTES) {
    throw httpError(400, 'validation_failed', `Password cannot be longer than ${PASSWORD_MAX_BYTES} characters`)
  }
  const reasons = weakPasswordReasons(settings, password)
  if (!reasons.length) return
  const message = reasons
    .map((reason) => goTrueWeakPasswordMessage(reason, settings.minPasswordLength, settings.requiredCharacters))
    .join(' ')
  throw httpError(422, 'weak_password', message, { weak_password: { reasons } })
}
