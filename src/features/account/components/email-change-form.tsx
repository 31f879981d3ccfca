/** Move the account to another email address; nothing changes until the link sent there is followed. */
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import * as z from 'zod/mini'
import { MailCheckIcon } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { errorText } from '@/components/error-text'
import { EMAIL_PATTERN, INVALID_EMAIL_MESSAGE } from '@/lib/email-pattern'
import { toast } from '@/lib/toast'
import { useEmailChangeMutation } from '../api/email-change-mutation'

export function EmailChangeForm({ currentEmail }: { currentEmail: string }) {
  const schema = z.object({
    email: z.string().check(
      z.trim(),
      z.minLength(1, { error: 'Enter the new email address.' }),
      z.regex(EMAIL_PATTERN, { error: INVALID_EMAIL_MESSAGE }),
      z.refine((value) => value.toLowerCase() !== currentEmail.toLowerCase(), {
        error: 'That is already your email address.',
      }),
    ),
  })
  const form = useForm<{ email: string }>({ resolver: zodResolver(schema), defaultValues: { email: '' } })
  const change = useEmailChangeMutation()
  const [sentTo, setSentTo] = useState<string | null>(null)
  const onSubmit = form.handleSubmit(async ({ email }) => {
    try {
      await change.mutateAsync(email)
      setSentTo(email)
      form.reset()
    } catch (error) {
      const message = errorText(error)
      form.setError('email', { message })
      toast.error(`Failed to change your email: ${message}`)
    }
  })
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm">
        Current address: <strong className="break-all">{currentEmail}</strong>
      </p>
      {sentTo ? (
        <p
          role="status"
          className="flex items-start gap-2 rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-900"
        >
          <MailCheckIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            Check your email: follow the link we sent to <strong className="break-all">{sentTo}</strong> to finish the
            change.
          </span>
        </p>
      ) : null}
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4 sm:flex-row sm:items-end">
        <FormField
          id="account-new-email"
          label="New email address"
          error={form.formState.errors.email?.message}
          className="min-w-0 flex-1"
        >
          <Input type="email" autoComplete="email" {...form.register('email')} />
        </FormField>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Sending…' : 'Change email'}
        </Button>
      </form>
    </div>
  )
}
