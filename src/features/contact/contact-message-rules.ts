/**
 * The contact form's rules; they mirror the contact_messages table's constraints with readable messages.
 * Plain validators for `useFormFields`: /contact is a public page inside the 150 KB budget (see the hook).
 */
import type { FormRules, Validator } from '@/lib/use-form-fields'
import { EMAIL_PATTERN, INVALID_EMAIL_MESSAGE } from '@/lib/email-pattern'

export type ContactMessageValues = { name: string; email: string; subject: string; message: string }

/** Checked on the trimmed value; the form submits it trimmed. */
const text =
  (missing: string, max: number, tooLong: string, min = 1): Validator<ContactMessageValues> =>
  (value) => {
    const trimmed = value.trim()
    if (trimmed.length < min) return missing
    return trimmed.length > max ? tooLong : null
  }

const email: Validator<ContactMessageValues> = (value) => {
  const trimmed = value.trim()
  if (!trimmed) return 'Enter your email so we can answer.'
  if (trimmed.length > 254) return 'That email address is too long.'
  return EMAIL_PATTERN.test(trimmed) ? null : INVALID_EMAIL_MESSAGE
}

export const contactMessageRules: FormRules<ContactMessageValues> = {
  validate: {
    name: text('Tell us your name.', 120, 'Keep your name under 120 characters.'),
    email,
    subject: text('Add a subject.', 200, 'Keep the subject under 200 characters.'),
    message: text(
      'Write at least 10 characters so we can help.',
      5000,
      'Keep your message under 5,000 characters.',
      10,
    ),
  },
  trim: ['name', 'email', 'subject', 'message'],
}
