/** The contact form's rules; they mirror the contact_messages table's constraints with readable messages. */
import { z } from 'zod'

export const contactMessageSchema = z.object({
  name: z.string().trim().min(1, { error: 'Tell us your name.' }).max(120, { error: 'Keep your name under 120 characters.' }),
  email: z
    .string()
    .trim()
    .min(1, { error: 'Enter your email so we can answer.' })
    .max(254, { error: 'That email address is too long.' })
    .pipe(z.email({ error: 'Enter a valid email address, like name@example.com.' })),
  subject: z.string().trim().min(1, { error: 'Add a subject.' }).max(200, { error: 'Keep the subject under 200 characters.' }),
  message: z
    .string()
    .trim()
    .min(10, { error: 'Write at least 10 characters so we can help.' })
    .max(5000, { error: 'Keep your message under 5,000 characters.' }),
})

export type ContactMessageValues = z.infer<typeof contactMessageSchema>
