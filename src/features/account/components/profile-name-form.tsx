/** Your name, as the avatar menu, admins and newsletters' emails show it. */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import * as z from 'zod/mini'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { toast } from '@/lib/toast'
import { useProfileNameMutation } from '../api/profile-name-mutation'

const nameSchema = z.object({
  firstName: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: 'Enter your first name.' }),
      z.maxLength(100, { error: 'Keep it under 100 characters.' }),
    ),
  lastName: z.string().check(z.trim(), z.maxLength(100, { error: 'Keep it under 100 characters.' })),
})
type NameValues = z.infer<typeof nameSchema>

export function ProfileNameForm({
  userId,
  firstName,
  lastName,
}: {
  userId: string
  firstName: string
  lastName: string
}) {
  const form = useForm<NameValues>({ resolver: zodResolver(nameSchema), defaultValues: { firstName, lastName } })
  const save = useProfileNameMutation({ onSuccess: () => toast.success('Your name was saved') })
  const { errors, isSubmitting } = form.formState
  const onSubmit = form.handleSubmit(async (values) => {
    await save.mutateAsync({ userId, ...values }).then(
      () => form.reset(values),
      () => undefined,
    )
  })
  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4" data-testid="account-name-form">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="account-first-name" label="First name" error={errors.firstName?.message}>
          <Input autoComplete="given-name" {...form.register('firstName')} />
        </FormField>
        <FormField id="account-last-name" label="Last name" error={errors.lastName?.message}>
          <Input autoComplete="family-name" {...form.register('lastName')} />
        </FormField>
      </div>
      <Button type="submit" className="self-start" disabled={isSubmitting}>
        {isSubmitting ? 'Saving…' : 'Save name'}
      </Button>
    </form>
  )
}
