/** Choosing a new password: the end of a password reset, and /update-password for a signed-in user. */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { toast } from '@/lib/toast'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { newPasswordSchema, type NewPasswordValues } from '../schemas'
import { usePasswordUpdateMutation } from '../api/password-update-mutation'
import { errorText } from '@/components/error-text'

export function NewPasswordForm({ onUpdated }: { onUpdated: () => void }) {
  const update = usePasswordUpdateMutation()
  const form = useForm<NewPasswordValues>({ resolver: zodResolver(newPasswordSchema), defaultValues: { password: '', confirm: '' } })
  const { errors, isSubmitting } = form.formState

  const onSubmit = form.handleSubmit(async ({ password }) => {
    try {
      await update.mutateAsync(password)
      toast.success('Password updated', { description: 'Use your new password next time you log in.' })
      onUpdated()
    } catch (error) {
      const message = errorText(error)
      form.setError('password', { message })
      toast.error(`Failed to update your password: ${message}`)
    }
  })

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid="new-password-form">
      <FormField id="new-password" label="New password" hint="At least 8 characters." error={errors.password?.message}>
        <Input type="password" autoComplete="new-password" {...form.register('password')} />
      </FormField>
      <FormField id="new-password-confirm" label="Repeat the new password" error={errors.confirm?.message}>
        <Input type="password" autoComplete="new-password" {...form.register('confirm')} />
      </FormField>
      <Button type="submit" disabled={isSubmitting}>
        Save new password
      </Button>
    </form>
  )
}
