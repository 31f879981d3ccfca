/** Registration (SPEC §2, §5, §8): role, names, email, password; then "confirm your email". */
import { useState } from 'react'
import { Link } from 'react-router-dom'
import { passwordHint } from '@rules/password'
import { preloadLeakedPasswords } from '@/lib/password-check'
import { toast } from '@/lib/toast'
import { useFormFields } from '@/lib/use-form-fields'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { paths } from '@/config/paths'
import { missingCredentials, type RegisterValues } from '../auth-rules'
import { registerRules } from '../password-rules'
import { useSignUpMutation, type SignUpResult } from '../api/sign-up-mutation'
import { resendVerificationWithToasts } from '../resend-verification'
import { FormMessage } from './auth-card'
import { CheckEmail } from './check-email'
import { RolePicker } from './role-picker'

type RegisterFormProps = { initialRole: RegisterValues['userType'] }

export function RegisterForm({ initialRole }: RegisterFormProps) {
  const signUp = useSignUpMutation()
  const [failure, setFailure] = useState<Extract<SignUpResult, { success: false }> | null>(null)
  const [sentTo, setSentTo] = useState<string | null>(null)
  const form = useFormFields<RegisterValues>({
    initial: { userType: initialRole, firstName: '', lastName: '', email: '', password: '' },
    ...registerRules,
  })
  const { errors, isSubmitting } = form

  if (sentTo) {
    return (
      <CheckEmail
        email={sentTo}
        onResend={() => resendVerificationWithToasts(sentTo)}
        note={
          <span data-testid="register-existing-account">
            Already have an account with this address? Then no email comes:{' '}
            <Link to={paths.login} className="font-medium underline">
              log in
            </Link>{' '}
            or{' '}
            <Link to={paths.forgotPassword} className="font-medium underline">
              reset your password
            </Link>
            .
          </span>
        }
      >
        Almost there: confirm your email address with the link we just sent you, then log in.
      </CheckEmail>
    )
  }

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null)
    const result = await signUp.mutateAsync(values)
    if (result.success) {
      toast.success('Check your email', { description: 'Confirm your address to finish signing up.' })
      setSentTo(result.email)
      return
    }
    if (result.errorType === 'WEAK_PASSWORD') {
      form.setError('password', result.message)
      return
    }
    setFailure(result)
    if (result.errorType !== 'EMAIL_EXISTS') toast.error(result.message)
  })

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid="register-form">
      <RolePicker field={form.fieldProps('userType')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="register-first-name" label="First name" error={errors.firstName}>
          <Input autoComplete="given-name" {...form.fieldProps('firstName')} />
        </FormField>
        <FormField id="register-last-name" label="Last name" error={errors.lastName}>
          <Input autoComplete="family-name" {...form.fieldProps('lastName')} />
        </FormField>
      </div>
      <FormField id="register-email" label="Email" error={errors.email}>
        <Input type="email" autoComplete="email" {...form.fieldProps('email')} />
      </FormField>
      <FormField id="register-password" label="Password" hint={passwordHint()} error={errors.password}>
        <Input
          type="password"
          autoComplete="new-password"
          onFocus={preloadLeakedPasswords}
          {...form.fieldProps('password')}
        />
      </FormField>
      {failure ? (
        <FormMessage tone="error" testId="register-error">
          {failure.message}{' '}
          {failure.errorType === 'EMAIL_EXISTS' ? (
            <>
              <Link to={paths.login} className="font-medium underline">
                Log in
              </Link>{' '}
              or{' '}
              <Link to={paths.forgotPassword} className="font-medium underline">
                reset your password
              </Link>
              .
            </>
          ) : null}
        </FormMessage>
      ) : null}
      {form.submitted && missingCredentials(form.values) ? (
        <FormMessage tone="error" testId="register-missing">
          {missingCredentials(form.values)}
        </FormMessage>
      ) : null}
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? 'Creating your account…' : 'Create account'}
      </Button>
      <p className="text-xs text-muted-foreground" data-testid="register-terms">
        By creating an account you agree to our{' '}
        <Link className="underline" to={paths.terms}>
          Terms of Service
        </Link>{' '}
        and{' '}
        <Link className="underline" to={paths.privacy}>
          Privacy Policy
        </Link>
        .
      </p>
    </form>
  )
}
