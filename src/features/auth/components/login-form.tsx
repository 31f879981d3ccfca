/**
 * Sign-in: email and password, then the TOTP code when the account has one, a clear message with a
 * resend button when the email address is not confirmed yet, or, for a suspended account, where the reason is and
 * how to appeal. Where to go next is the page's decision:
 * it follows the session state, which changes once sign-in (and the code, if any) succeeds.
 */
import { useEffect, useState } from 'react'
import { Link } from 'react-router-dom'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { paths } from '@/config/paths'
import { useSession } from '@/lib/session'
import { useFormFields } from '@/lib/use-form-fields'
import { loginRules, missingCredentials } from '../auth-rules'
import { pendingTotpFactor, useSignInMutation, type SignInResult } from '../api/sign-in-mutation'
import { signOut } from '../api/sign-out-mutation'
import { resendVerificationWithToasts } from '../resend-verification'
import { FormMessage } from './auth-card'
import { MfaCodeForm } from './mfa-code-form'

/** The contact form, prefilled to appeal a suspension (PRODUCT "Fair to both sides"). */
const appealPath = (email: string) =>
  `${paths.contact}?${new URLSearchParams({ subject: 'Appeal my account suspension', email }).toString()}`

export function LoginForm() {
  const signIn = useSignInMutation()
  const { needsMfa } = useSession()
  const [outcome, setOutcome] = useState<SignInResult | null>(null)
  const [resending, setResending] = useState(false)
  const form = useFormFields({ initial: { email: '', password: '' }, ...loginRules })
  const { errors, isSubmitting } = form

  // Someone who signed in with the password earlier but never gave the code comes back here to give it.
  useEffect(() => {
    if (!needsMfa || outcome?.status === 'mfa-required') return
    let active = true
    void pendingTotpFactor().then((factorId) => {
      if (active && factorId) setOutcome({ status: 'mfa-required', factorId })
    })
    return () => {
      active = false
    }
  }, [needsMfa, outcome])

  if (outcome?.status === 'mfa-required') {
    return <MfaCodeForm factorId={outcome.factorId} onCancel={() => void signOut().finally(() => setOutcome(null))} />
  }

  const onSubmit = form.handleSubmit(async (values) => {
    setOutcome(await signIn.mutateAsync(values))
  })

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid="login-form">
      <FormField id="login-email" label="Email" error={errors.email}>
        <Input type="email" autoComplete="email" {...form.fieldProps('email')} />
      </FormField>
      <FormField id="login-password" label="Password" error={errors.password}>
        <Input type="password" autoComplete="current-password" {...form.fieldProps('password')} />
      </FormField>
      <div className="-mt-2 text-right text-sm">
        <Link to={paths.forgotPassword} className="text-primary hover:underline">
          Forgot your password?
        </Link>
      </div>
      {outcome?.status === 'error' ? (
        <FormMessage tone="error" testId="login-error">
          {outcome.message}
        </FormMessage>
      ) : null}
      {outcome?.status === 'email-not-confirmed' ? (
        <FormMessage tone="error" testId="login-unconfirmed">
          <span className="flex flex-col gap-2">
            <span>{outcome.message}</span>
            <Button
              type="button"
              size="sm"
              variant="outline"
              disabled={resending}
              onClick={async () => {
                setResending(true)
                await resendVerificationWithToasts(outcome.email).finally(() => setResending(false))
              }}
            >
              Resend confirmation email
            </Button>
          </span>
        </FormMessage>
      ) : null}
      {outcome?.status === 'suspended' ? (
        <FormMessage tone="error" testId="login-suspended">
          <span className="flex flex-col gap-2">
            <span>{outcome.message}</span>
            <Link to={appealPath(outcome.email)} className="font-medium underline">
              Appeal through the contact form
            </Link>
          </span>
        </FormMessage>
      ) : null}
      {form.submitted && missingCredentials(form.values) ? (
        <FormMessage tone="error" testId="login-missing">
          {missingCredentials(form.values)}
        </FormMessage>
      ) : null}
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? 'Logging in…' : 'Log in'}
      </Button>
    </form>
  )
}
