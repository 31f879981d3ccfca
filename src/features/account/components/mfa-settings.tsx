/**
 * Two-factor sign-in (PRODUCT "Accounts"): set up an authenticator app (enrol → scan the QR code →
 * confirm with a code) or turn it off. Once on, sign-in asks for the code. Every factor on the account is
 * listed with its state, and one that is not verified can be removed (MfaFactorList).
 */
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import * as z from 'zod/mini'
import { toast } from '@/lib/toast'
import { ShieldCheckIcon } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { PageSpinner } from '@/components/page-spinner'
import { useMfaFactorsQuery } from '../api/mfa-factors-query'
import { useMfaEnrollMutation } from '../api/mfa-enroll-mutation'
import { useMfaVerifyMutation } from '../api/mfa-verify-mutation'
import { useMfaUnenrollMutation } from '../api/mfa-unenroll-mutation'
import { errorText } from '@/components/error-text'
import { MfaFactorList } from './mfa-factor-list'

const codeSchema = z.object({
  code: z
    .string()
    .check(z.trim(), z.regex(/^\d{6}$/, { error: 'Enter the 6-digit code from your authenticator app.' })),
})
type CodeValues = z.infer<typeof codeSchema>

type Enrollment = { factorId: string; qrCode: string; secret: string }

export function MfaSettings() {
  const factors = useMfaFactorsQuery()
  const enroll = useMfaEnrollMutation()
  const verify = useMfaVerifyMutation()
  const unenroll = useMfaUnenrollMutation()
  const [enrollment, setEnrollment] = useState<Enrollment | null>(null)
  const form = useForm<CodeValues>({ resolver: zodResolver(codeSchema), defaultValues: { code: '' } })

  if (factors.isPending) return <PageSpinner label="Loading your security settings…" />
  if (factors.isError) return <p role="alert">Could not load your security settings: {factors.error.message}</p>

  const list = (
    <MfaFactorList
      factors={factors.data}
      enrollingId={enrollment?.factorId}
      removingId={unenroll.isPending ? unenroll.variables : undefined}
      onRemove={(factor) =>
        unenroll.mutate(factor.id, {
          onSuccess: () => toast.success('Unfinished authenticator removed'),
          onError: (error) => toast.error(`Failed to remove the authenticator: ${error.message}`),
        })
      }
    />
  )

  const verified = factors.data.find((factor) => factor.status === 'verified')
  if (verified && !enrollment) {
    return (
      <div className="flex flex-col gap-4">
        {list}
        <p className="flex items-center gap-2 font-medium text-primary">
          <ShieldCheckIcon className="size-5" aria-hidden="true" /> Two-factor sign-in is on.
        </p>
        <p className="text-sm text-muted-foreground">Every sign-in asks for a code from your authenticator app.</p>
        <Button
          variant="outline"
          disabled={unenroll.isPending}
          onClick={() =>
            unenroll.mutate(verified.id, {
              onSuccess: () => toast.success('Two-factor sign-in turned off'),
              onError: (error) => toast.error(`Failed to turn off two-factor sign-in: ${error.message}`),
            })
          }
        >
          Turn off two-factor sign-in
        </Button>
      </div>
    )
  }

  if (!enrollment) {
    return (
      <div className="flex flex-col gap-4">
        {list}
        <p className="text-sm text-muted-foreground">
          Protect your account with a code from an authenticator app (1Password, Google Authenticator, Authy…) on top of
          your password.
        </p>
        <Button
          disabled={enroll.isPending}
          onClick={() =>
            enroll.mutate(undefined, {
              onSuccess: setEnrollment,
              onError: (error) => toast.error(`Failed to start two-factor setup: ${error.message}`),
            })
          }
        >
          Set up two-factor sign-in
        </Button>
      </div>
    )
  }

  const onSubmit = form.handleSubmit(async ({ code }) => {
    try {
      await verify.mutateAsync({ factorId: enrollment.factorId, code })
      toast.success('Two-factor sign-in is on')
      setEnrollment(null)
      form.reset()
    } catch (error) {
      const message = errorText(error)
      form.setError('code', { message: `That code did not work: ${message}` })
    }
  })

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
      {list}
      <ol className="list-decimal space-y-1 pl-5 text-sm text-muted-foreground">
        <li>Scan this QR code with your authenticator app.</li>
        <li>Enter the 6-digit code it shows.</li>
      </ol>
      {enrollment.qrCode ? (
        <img
          src={enrollment.qrCode}
          alt="QR code to add Growletter to your authenticator app"
          className="mx-auto size-44 bg-white p-2"
          data-testid="mfa-qr"
        />
      ) : null}
      <p className="text-sm">
        Or type this key:{' '}
        <code className="rounded bg-muted px-1.5 py-0.5 break-all" data-testid="mfa-secret">
          {enrollment.secret}
        </code>
      </p>
      <FormField id="mfa-enroll-code" label="Code from your app" error={form.formState.errors.code?.message}>
        <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} {...form.register('code')} />
      </FormField>
      <Button type="submit" disabled={form.formState.isSubmitting}>
        Turn on two-factor sign-in
      </Button>
    </form>
  )
}
