/** Form rules for the account screens. SPEC §5 gives the message for a missing email or password. */
import { z } from 'zod'

export const MISSING_CREDENTIALS_MESSAGE = 'You must provide either an email or phone number and a password'
export const MIN_PASSWORD_LENGTH = 8

const email = z
  .string()
  .trim()
  .min(1, { error: MISSING_CREDENTIALS_MESSAGE })
  .pipe(z.email({ error: 'Enter a valid email address, like name@example.com.' }))
const requiredPassword = z.string().min(1, { error: MISSING_CREDENTIALS_MESSAGE })
const newPassword = z
  .string()
  .min(1, { error: MISSING_CREDENTIALS_MESSAGE })
  .min(MIN_PASSWORD_LENGTH, { error: `Use at least ${MIN_PASSWORD_LENGTH} characters.` })

export const registerSchema = z.object({
  userType: z.enum(['advertiser', 'publisher']),
  firstName: z.string().trim().min(1, { error: 'Enter your first name.' }).max(100, { error: 'Keep it under 100 characters.' }),
  lastName: z.string().trim().min(1, { error: 'Enter your last name.' }).max(100, { error: 'Keep it under 100 characters.' }),
  email,
  password: newPassword,
})
export type RegisterValues = z.infer<typeof registerSchema>

export const loginSchema = z.object({ email, password: requiredPassword })
export type LoginValues = z.infer<typeof loginSchema>

export const emailOnlySchema = z.object({ email })
export type EmailOnlyValues = z.infer<typeof emailOnlySchema>

export const newPasswordSchema = z
  .object({ password: newPassword, confirm: z.string() })
  .refine((values) => values.password === values.confirm, { error: 'The passwords do not match.', path: ['confirm'] })
export type NewPasswordValues = z.infer<typeof newPasswordSchema>

export const totpCodeSchema = z.object({
  code: z.string().trim().regex(/^\d{6}$/, { error: 'Enter the 6-digit code from your authenticator app.' }),
})
export type TotpCodeValues = z.infer<typeof totpCodeSchema>
