/**
 * Form rules for the account screens. SPEC §5 gives the message for a missing email or password.
 * zod/mini keeps these public pages light (same rules, a fraction of the bytes).
 */
import * as z from 'zod/mini'

export const MISSING_CREDENTIALS_MESSAGE = 'You must provide either an email or phone number and a password'
export const MIN_PASSWORD_LENGTH = 8

const email = z.pipe(
  z.string().check(z.trim(), z.minLength(1, { error: MISSING_CREDENTIALS_MESSAGE })),
  z.email({ error: 'Enter a valid email address, like name@example.com.' }),
)
const requiredPassword = z.string().check(z.minLength(1, { error: MISSING_CREDENTIALS_MESSAGE }))
const newPassword = z
  .string()
  .check(
    z.minLength(1, { error: MISSING_CREDENTIALS_MESSAGE, abort: true }),
    z.minLength(MIN_PASSWORD_LENGTH, { error: `Use at least ${MIN_PASSWORD_LENGTH} characters.` }),
  )
const name = (missing: string) =>
  z.string().check(z.trim(), z.minLength(1, { error: missing }), z.maxLength(100, { error: 'Keep it under 100 characters.' }))

export const registerSchema = z.object({
  userType: z.enum(['advertiser', 'publisher']),
  firstName: name('Enter your first name.'),
  lastName: name('Enter your last name.'),
  email,
  password: newPassword,
})
export type RegisterValues = z.infer<typeof registerSchema>

export const loginSchema = z.object({ email, password: requiredPassword })
export type LoginValues = z.infer<typeof loginSchema>

export const emailOnlySchema = z.object({ email })
export type EmailOnlyValues = z.infer<typeof emailOnlySchema>

export const newPasswordSchema = z.object({ password: newPassword, confirm: z.string() }).check(
  z.refine((values) => values.password === values.confirm, { error: 'The passwords do not match.', path: ['confirm'] }),
)
export type NewPasswordValues = z.infer<typeof newPasswordSchema>

export const totpCodeSchema = z.object({
  code: z.string().check(z.trim(), z.regex(/^\d{6}$/, { error: 'Enter the 6-digit code from your authenticator app.' })),
})
export type TotpCodeValues = z.infer<typeof totpCodeSchema>
