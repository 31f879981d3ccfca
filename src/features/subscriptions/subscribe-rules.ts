/**
 * The subscribe form's rule, a plain validator for `useFormFields`: the form sits on every newsletter page (public,
 * inside the 150 KB budget), so no zod. The address shape is EMAIL_PATTERN, the one zod's `z.email()` accepts,
 * so the subscribe function and this form agree on what an address is.
 */
import type { FormRules } from '@/lib/use-form-fields'
import { EMAIL_PATTERN } from '@/lib/email-pattern'

export type SubscribeValues = { email: string }

/** Checked on the trimmed value; the form submits it trimmed. */
export function subscribeEmail(value: string): string | null {
  const trimmed = value.trim()
  if (!trimmed) return 'Please enter your email address'
  return EMAIL_PATTERN.test(trimmed) ? null : 'Please enter a valid email address'
}

export const subscribeRules: FormRules<SubscribeValues> = { validate: { email: subscribeEmail }, trim: ['email'] }
