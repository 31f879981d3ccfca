/** The /contact form: validated in the browser, stored in the database, confirmed on screen. */
import { useState } from 'react'
import { toast } from '@/lib/toast'
import { useFormFields } from '@/lib/use-form-fields'
import { CheckCircle2Icon } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { FormField } from '@/components/form-field'
import { contactMessageRules, type ContactMessageValues } from '../contact-message-rules'
import { useContactMessageCreateMutation } from '../api/contact-message-create-mutation'
import { errorText } from '@/components/error-text'

const empty: ContactMessageValues = { name: '', email: '', subject: '', message: '' }

type ContactFormProps = { defaults?: Partial<ContactMessageValues> }

/** A sent message replaces the form; "Send another message" brings a fresh, empty one (a new key). */
export function ContactForm({ defaults }: ContactFormProps) {
  const [round, setRound] = useState(0)
  return <ContactFormRound key={round} defaults={defaults} onAnother={() => setRound((n) => n + 1)} />
}

function ContactFormRound({ defaults, onAnother }: ContactFormProps & { onAnother: () => void }) {
  const create = useContactMessageCreateMutation()
  const [sent, setSent] = useState(false)
  const form = useFormFields({ initial: { ...empty, ...defaults }, ...contactMessageRules })
  const { errors, isSubmitting, ready } = form

  if (sent) {
    return (
      <div
        role="status"
        className="flex flex-col items-start gap-3 rounded-lg border border-primary/40 bg-accent p-6 text-accent-foreground"
        data-testid="contact-sent"
      >
        <p className="flex items-center gap-2 text-lg font-semibold">
          <CheckCircle2Icon className="size-5" aria-hidden="true" /> Thanks, your message is on its way.
        </p>
        <p>We read every message and usually answer within two working days.</p>
        <Button variant="outline" onClick={onAnother}>
          Send another message
        </Button>
      </div>
    )
  }

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await create.mutateAsync(values)
      toast.success('Message sent', { description: 'We will get back to you soon.' })
      setSent(true)
    } catch (error) {
      toast.error(`Failed to send your message: ${errorText(error)}`)
    }
  })

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid="contact-form">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="contact-name" label="Name" error={errors.name}>
          <Input autoComplete="name" {...form.fieldProps('name')} />
        </FormField>
        <FormField id="contact-email" label="Email" error={errors.email}>
          <Input type="email" autoComplete="email" {...form.fieldProps('email')} />
        </FormField>
      </div>
      <FormField id="contact-subject" label="Subject" error={errors.subject}>
        <Input {...form.fieldProps('subject')} />
      </FormField>
      <FormField id="contact-message" label="Message" error={errors.message}>
        <Textarea rows={6} {...form.fieldProps('message')} />
      </FormField>
      {/* Disabled in the prerendered HTML: pressed before the app takes over, it would submit the page natively. */}
      <Button type="submit" className="w-fit" disabled={!ready || isSubmitting}>
        {isSubmitting ? 'Sending…' : 'Send message'}
      </Button>
    </form>
  )
}
