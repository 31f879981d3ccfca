/**
 * The contact form's rules; they mirror the contact_messages table's constraints with readable messages.
 * zod/mini: the same rules for a fraction of the bytes on a public page.
 */
import * as z from 'zod/mini'

const text = (missing: string, max: number, tooLong: string, min = 1) =>
  z.string().check(z.trim(), z.minLength(min, { error: missing }), z.maxLength(max, { error: tooLong }))

export const contactMessageSchema = z.object({
  name: text('Tell us your name.', 120, 'Keep your name under 120 characters.'),
  email: z.pipe(
    z.string().check(
      z.trim(),
      z.minLength(1, { error: 'Enter your email so we can answer.' }),
      z.maxLength(254, { error: 'That email address is too long.' }),
    ),
    z.email({ error: 'Enter a valid email address, like name@example.com.' }),
  ),
  subject: text('Add a subject.', 200, 'Keep the subject under 200 characters.'),
  message: text('Write at least 10 characters so we can help.', 5000, 'Keep your message under 5,000 characters.', 10),
})

export type ContactMessageValues = z.infer<typeof contactMessageSchema>
