/**
 * `/confirm-subscription?token=…&email=…` (SPEC §2, §4, §8): verifying → success, already-confirmed, expired or
 * error, each with its texts and toast, and a 'Return to Home' link.
 */
import { useEffect, useRef, useState } from 'react'
import { Link } from 'react-router-dom'
import { AlertTriangleIcon, CheckCircle2Icon, ClockIcon, InfoIcon, Loader2Icon } from 'lucide-react'
import { toast } from '@/lib/toast'
import { paths } from '@/config/paths'
import { Button } from '@/components/ui/button'
import { verifySubscription } from '../api/subscription-verify-request'
import { confirmationTexts as t } from '../lib/confirmation-texts'
import { addConfirmedNewsletters } from '../lib/subscribed-newsletters'

export type ConfirmationState =
  | { kind: 'verifying' }
  | { kind: 'success'; newsletterName: string | null }
  | { kind: 'already-confirmed'; newsletterName: string | null }
  | { kind: 'expired' }
  | { kind: 'error'; message: string; details: string | null }

async function confirm(token: string | null, email: string | null): Promise<ConfirmationState> {
  if (!token) {
    toast.error(t.invalidLinkToast, { description: t.missingToken })
    return { kind: 'error', message: t.missingToken, details: null }
  }
  if (!email) {
    toast.error(t.invalidLinkToast, { description: 'The link has no email address.' })
    return { kind: 'error', message: t.invalidLinkToast, details: 'The link has no email address.' }
  }
  try {
    const result = await verifySubscription({ token, email })
    if (result.expired) {
      toast.error(t.expiredToast, { description: t.expiredMessage })
      return { kind: 'expired' }
    }
    if (result.success || result.alreadyConfirmed)
      addConfirmedNewsletters([...result.newsletterIds, ...(result.newsletterId ? [result.newsletterId] : [])])
    if (result.alreadyConfirmed) {
      toast.info(t.alreadyConfirmedToast, {
        description: result.newsletterName ? `You are already subscribed to ${result.newsletterName}.` : undefined,
      })
      return { kind: 'already-confirmed', newsletterName: result.newsletterName }
    }
    if (result.success) {
      toast.success('Subscription confirmed', {
        description: result.newsletterName ? `Welcome to ${result.newsletterName}!` : undefined,
      })
      return { kind: 'success', newsletterName: result.newsletterName }
    }
    toast.error(t.failedToast, { description: result.error ?? t.failedMessage })
    return { kind: 'error', message: t.failedMessage, details: result.error }
  } catch (error) {
    const details = error instanceof Error ? error.message : null
    toast.error(t.unexpectedToast, { description: t.failedMessage })
    return { kind: 'error', message: t.failedMessage, details }
  }
}

const ICONS = {
  verifying: <Loader2Icon className="size-10 animate-spin text-muted-foreground" aria-hidden="true" />,
  success: <CheckCircle2Icon className="size-10 text-green-600" aria-hidden="true" />,
  'already-confirmed': <InfoIcon className="size-10 text-blue-600" aria-hidden="true" />,
  expired: <ClockIcon className="size-10 text-yellow-600" aria-hidden="true" />,
  error: <AlertTriangleIcon className="size-10 text-red-600" aria-hidden="true" />,
}

function StateText({ state }: { state: ConfirmationState }) {
  switch (state.kind) {
    case 'verifying':
      return <h1 className="text-2xl font-semibold">Verifying your subscription…</h1>
    case 'success':
      return (
        <>
          <h1 className="text-2xl font-semibold">Subscription confirmed!</h1>
          <p className="text-muted-foreground">
            {state.newsletterName ? `You are now subscribed to ${state.newsletterName}.` : 'You are now subscribed.'}
          </p>
        </>
      )
    case 'already-confirmed':
      return (
        <>
          <h1 className="text-2xl font-semibold">Already confirmed</h1>
          <p className="text-muted-foreground">
            {state.newsletterName
              ? `Your subscription to ${state.newsletterName} was already confirmed.`
              : 'This subscription was already confirmed.'}
          </p>
        </>
      )
    case 'expired':
      return (
        <>
          <h1 className="text-2xl font-semibold">Link expired</h1>
          <p className="text-muted-foreground">{t.expiredMessage}</p>
          <p className="text-muted-foreground">{t.expiredHint}</p>
        </>
      )
    case 'error':
      return (
        <>
          <h1 className="text-2xl font-semibold">{t.failedToast}</h1>
          <p className="text-muted-foreground">{state.message}</p>
          {state.details && state.details !== state.message && (
            <p className="text-sm text-muted-foreground">{state.details}</p>
          )}
        </>
      )
  }
}

export function ConfirmSubscriptionView({ token, email }: { token: string | null; email: string | null }) {
  const [state, setState] = useState<ConfirmationState>({ kind: 'verifying' })
  // A token is single use: never send it twice, even when React runs effects twice in development.
  const sent = useRef<string | null>(null)

  useEffect(() => {
    const key = `${token ?? ''}|${email ?? ''}`
    if (sent.current === key) return
    sent.current = key
    void confirm(token, email).then(setState)
  }, [token, email])

  return (
    <section
      className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-16 text-center"
      data-testid="confirmation"
      data-state={state.kind}
    >
      {ICONS[state.kind]}
      <div role={state.kind === 'error' ? 'alert' : 'status'} className="flex flex-col gap-2">
        <StateText state={state} />
      </div>
      <Button asChild variant={state.kind === 'verifying' ? 'outline' : 'default'}>
        <Link to={paths.home}>Return to Home</Link>
      </Button>
    </section>
  )
}
