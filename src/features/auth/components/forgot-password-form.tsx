/** "Forgot password": asks for the email and sends the reset link. */
import { useState } from 'react'
import { toast } from '@/lib/toast'
import { useFormFields } from '@/lib/use-form-fields'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { emailOnlyRules } from '../auth-rules'
import { requestPasswordReset, usePasswordResetRequestMutation } from '../api/password-reset-request-mutation'
import { CheckEmail } from './check-email'
import { errorText } from '@/components/error-text'

export function ForgotPasswordForm() {
  const request = usePasswordResetRequestMutation()
  const [sentTo, setSentTo] = useState<string | null>(null)
  const form = useFormFields({ initial: { email: '' }, ...emailOnlyRules })

  if (sentTo) {
    return (
      <CheckEmail
        email={sentTo}
        onResend={() => requestPasswordReset(sentTo).then(() => toast.success('Reset link sent'))}
      >
        Open the link in the email to choose a new password.
      </CheckEmail>
    )
  }

  const onSubmit = form.handleSubmit(async ({ email }) => {
    try {
      await request.mutateAsync(email)
      setSentTo(email)
    } catch (error) {
      toast.error(`Failed to send the reset link: ${errorText(error)}`)
    }
  })

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid="forgot-password-form">
      <FormField id="forgot-email" label="Email" error={form.errors.email}>
        <Input type="email" autoComplete="email" {...form.fieldProps('email')} />
      </FormField>
      <Button type="submit" disabled={form.isSubmitting}>
        Send reset link
      </Button>
    </form>
  )
}
