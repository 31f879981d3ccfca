/**
 * Choosing a password: registration and the reset page, as validator functions for `useFormFields`. The rules are
 * the shared ones of supabase/functions/_shared/rules/password.ts, which config.toml gives the auth server; the list
 * of leaked passwords is checked on submit (lib/password-check.ts), as it loads on demand.
 */
import { newPasswordProblem } from '@rules/password'
import type { FormRules } from '@/lib/use-form-fields'
import { email, name, userType, type RegisterValues } from './auth-rules'

export const newPassword = (value: string): string | null => newPasswordProblem(value)

/** The repeat only disagrees with a password that was given; a missing password has its own message. */
export function confirmPassword(value: string, values: { password: string }): string | null {
  return values.password && value !== values.password ? 'The passwords do not match.' : null
}

export const registerRules: FormRules<RegisterValues> = {
  validate: {
    userType,
    firstName: name('Enter your first name.'),
    lastName: name('Enter your last name.'),
    email,
    password: newPassword,
  },
  trim: ['firstName', 'lastName', 'email'],
}

export type NewPasswordValues = { password: string; confirm: string }
export const newPasswordRules: FormRules<NewPasswordValues> = {
  validate: { password: newPassword, confirm: confirmPassword },
}
