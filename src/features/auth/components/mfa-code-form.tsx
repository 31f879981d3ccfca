/** The second sign-in step for accounts with two-factor sign-in: the code from the authenticator app. */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { totpCodeSchema, type TotpCodeValues } from '../schemas'
import { useMfaChallengeVerifyMutation } from '../api/mfa-challenge-verify-mutation'
import { errorText } from '@/components/error-text'

type MfaCodeFormProps = { factorId: string; onVerified?: () => void; onCancel: () => void }

export function MfaCodeForm({ factorId, onVerified, onCancel }: MfaCodeFormProps) {
  const verify = useMfaChallengeVerifyMutation()
  const form = useForm<TotpCodeValues>({ resolver: zodResolver(totpCodeSchema), defaultValues: { code: '' } })

  const onSubmit = form.handleSubmit(async ({ code }) => {
    try {
      await verify.mutateAsync({ factorId, code })
      onVerified?.()
    } catch (error) {
      const message = errorText(error)
      form.setError('code', { message: `That code did not work: ${message}` })
    }
  })

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid="mfa-form">
      <p className="text-sm text-muted-foreground">Your account has two-factor sign-in. Enter the code from your authenticator app.</p>
      <FormField id="login-mfa-code" label="6-digit code" error={form.formState.errors.code?.message}>
        <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} {...form.register('code')} />
      </FormField>
      <Button type="submit" disabled={form.formState.isSubmitting}>
        Verify
      </Button>
      <Button type="button" variant="ghost" onClick={onCancel}>
        Use another account
      </Button>
    </form>
  )
}
