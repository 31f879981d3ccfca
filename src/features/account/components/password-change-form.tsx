/** A new password for this account (at least 8 characters, typed twice). */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import * as z from 'zod/mini'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { errorText } from '@/components/error-text'
import { toast } from '@/lib/toast'
import { usePasswordChangeMutation } from '../api/password-change-mutation'

export const MIN_PASSWORD_LENGTH = 8

const schema = z
  .object({
    password: z
      .string()
      .check(
        z.minLength(1, { error: 'Enter a new password.' }),
        z.minLength(MIN_PASSWORD_LENGTH, { error: `Use at least ${MIN_PASSWORD_LENGTH} characters.` }),
      ),
    confirm: z.string(),
  })
  .check(
    z.refine((values) => values.password === values.confirm, {
      error: 'The passwords do not match.',
      path: ['confirm'],
    }),
  )
type PasswordValues = z.infer<typeof schema>

export function PasswordChangeForm() {
  const form = useForm<PasswordValues>({ resolver: zodResolver(schema), defaultValues: { password: '', confirm: '' } })
  const change = usePasswordChangeMutation()
  const { errors, isSubmitting } = form.formState
  const onSubmit = form.handleSubmit(async ({ password }) => {
    try {
      await change.mutateAsync(password)
      toast.success('Your password was changed')
      form.reset()
    } catch (error) {
      const message = errorText(error)
      form.setError('password', { message })
      toast.error(`Failed to change your password: ${message}`)
    }
  })
  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          id="account-new-password"
          label="New password"
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          error={errors.password?.message}
        >
          <Input type="password" autoComplete="new-password" {...form.register('password')} />
        </FormField>
        <FormField id="account-confirm-password" label="Repeat the new password" error={errors.confirm?.message}>
          <Input type="password" autoComplete="new-password" {...form.register('confirm')} />
        </FormField>
      </div>
      <Button type="submit" className="self-start" disabled={isSubmitting}>
        {isSubmitting ? 'Saving…' : 'Change password'}
      </Button>
    </form>
  )
}
