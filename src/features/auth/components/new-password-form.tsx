/** Choosing a new password: the end of a password reset, and /update-password for a signed-in user. */
import { passwordHint } from '@rules/password'
import { preloadLeakedPasswords } from '@/lib/password-check'
import { toast } from '@/lib/toast'
import { useFormFields } from '@/lib/use-form-fields'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { newPasswordRules } from '../password-rules'
import { usePasswordUpdateMutation } from '../api/password-update-mutation'
import { errorText } from '@/components/error-text'

export function NewPasswordForm({ onUpdated }: { onUpdated: () => void }) {
  const update = usePasswordUpdateMutation()
  const form = useFormFields({ initial: { password: '', confirm: '' }, ...newPasswordRules })
  const { errors, isSubmitting } = form

  const onSubmit = form.handleSubmit(async ({ password }) => {
    try {
      await update.mutateAsync(password)
      toast.success('Password updated', { description: 'Use your new password next time you log in.' })
      onUpdated()
    } catch (error) {
      const message = errorText(error)
      form.setError('password', message)
      toast.error(`Failed to update your password: ${message}`)
    }
  })

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid="new-password-form">
      <FormField id="new-password" label="New password" hint={passwordHint()} error={errors.password}>
        <Input
          type="password"
          autoComplete="new-password"
          onFocus={preloadLeakedPasswords}
          {...form.fieldProps('password')}
        />
      </FormField>
      <FormField id="new-password-confirm" label="Repeat the new password" error={errors.confirm}>
        <Input type="password" autoComplete="new-password" {...form.fieldProps('confirm')} />
      </FormField>
      <Button type="submit" disabled={isSubmitting}>
        Save new password
      </Button>
    </form>
  )
}
