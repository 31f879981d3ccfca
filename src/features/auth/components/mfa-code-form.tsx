/** The second sign-in step for accounts with two-factor sign-in: the code from the authenticator app. */
import { useFormFields } from '@/lib/use-form-fields'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { totpCodeRules } from '../auth-rules'
import { useMfaChallengeVerifyMutation } from '../api/mfa-challenge-verify-mutation'
import { errorText } from '@/components/error-text'

type MfaCodeFormProps = { factorId: string; onVerified?: () => void; onCancel: () => void }

export function MfaCodeForm({ factorId, onVerified, onCancel }: MfaCodeFormProps) {
  const verify = useMfaChallengeVerifyMutation()
  const form = useFormFields({ initial: { code: '' }, ...totpCodeRules })

  const onSubmit = form.handleSubmit(async ({ code }) => {
    try {
      await verify.mutateAsync({ factorId, code })
      onVerified?.()
    } catch (error) {
      const message = errorText(error)
      form.setError('code', `That code did not work: ${message}`)
    }
  })

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid="mfa-form">
      <p className="text-sm text-muted-foreground">
        Your account has two-factor sign-in. Enter the code from your authenticator app.
      </p>
      <FormField id="login-mfa-code" label="6-digit code" error={form.errors.code}>
        <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} {...form.fieldProps('code')} />
      </FormField>
      <Button type="submit" disabled={form.isSubmitting}>
        Verify
      </Button>
      <Button type="button" variant="ghost" onClick={onCancel}>
        Use another account
      </Button>
    </form>
  )
}
