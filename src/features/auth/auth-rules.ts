/**
 * Form rules for the account screens, as plain validator functions for `useFormFields` (see its header for why
 * these public pages do without zod). SPEC §5 gives the message for a missing email or password. Choosing a password
 * (registration, reset) is password-rules.ts: the log-in page does not load those rules.
 */
import type { FormRules } from '@/lib/use-form-fields'
import { EMAIL_PATTERN, INVALID_EMAIL_MESSAGE } from '@/lib/email-pattern'

export const MISSING_CREDENTIALS_MESSAGE = 'You must provide either an email or phone number and a password'
export const USER_TYPES = ['advertiser', 'publisher'] as const

/**
 * SPEC §5's message, said once for the whole sign-in or sign-up form when the email or the password is missing
 * (each field then says which of the two it is); never on forms that have no password.
 */
export function missingCredentials(values: { email: string; password: string }): string | null {
  return values.email.trim() && values.password ? null : MISSING_CREDENTIALS_MESSAGE
}

/** Checked on the trimmed value; the form submits it trimmed. */
export function email(value: string): string | null {
  const trimmed = value.trim()
  if (!trimmed) return 'Enter your email address.'
  return EMAIL_PATTERN.test(trimmed) ? null : INVALID_EMAIL_MESSAGE
}

/** Signing in: any password the user typed, spaces included. */
export function requiredPassword(value: string): string | null {
  return value ? null : 'Enter your password.'
}

/** A first or last name, checked (and submitted) trimmed. */
export const name =
  (missing: string) =>
  (value: string): string | null => {
    const trimmed = value.trim()
    if (!trimmed) return missing
    return trimmed.length > 100 ? 'Keep it under 100 characters.' : null
  }

export function userType(value: string): string | null {
  return (USER_TYPES as readonly string[]).includes(value) ? null : 'Invalid input'
}

export function totpCode(value: string): string | null {
  return /^\d{6}$/.test(value.trim()) ? null : 'Enter the 6-digit code from your authenticator app.'
}

export type RegisterValues = {
  userType: (typeof USER_TYPES)[number]
  firstName: string
  lastName: string
  email: string
  password: string
}
export type LoginValues = { email: string; password: string }
export const loginRules: FormRules<LoginValues> = { validate: { email, password: requiredPassword }, trim: ['email'] }

export type EmailOnlyValues = { email: string }
export const emailOnlyRules: FormRules<EmailOnlyValues> = { validate: { email }, trim: ['email'] }

export type TotpCodeValues = { code: string }
export const totpCodeRules: FormRules<TotpCodeValues> = { validate: { code: totpCode }, trim: ['code'] }
