/** A new password for this account, typed twice, under the shared rules (supabase/functions/_shared/rules). */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import * as z from 'zod/mini'
import { newPasswordProblem, passwordHint } from '@rules/password'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { errorText } from '@/components/error-text'
import { preloadLeakedPasswords } from '@/lib/password-check'
import { toast } from '@/lib/toast'
import { usePasswordChangeMutation } from '../api/password-change-mutation'

const schema = z
  .object({
    password: z.string().check(
      z.superRefine((value, ctx) => {
        const problem = newPasswordProblem(value)
        if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value })
      }),
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
          hint={passwordHint()}
          error={errors.password?.message}
        >
          <Input
            type="password"
            autoComplete="new-password"
            onFocus={preloadLeakedPasswords}
            {...form.register('password')}
          />
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
