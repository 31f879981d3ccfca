/**
 * `/decline-subscription?token=…&email=…`: a reader who did not ask for a newsletter declines it. The page asks
 * first (a button, so a mail scanner that opens the link declines nothing), then says plainly what happened:
 * declined (not subscribed, nothing charged), already confirmed (cannot be declined: unsubscribe instead), or
 * why the link did not work.
 */
import { Link } from 'react-router-dom'
import { AlertTriangleIcon, CircleSlashIcon, InfoIcon, Loader2Icon, MailXIcon } from 'lucide-react'
import { paths } from '@/config/paths'
import { Button } from '@/components/ui/button'
import { useSubscriptionDeclineMutation, type DeclineResult } from '../api/subscription-decline-mutation'

export type DeclineState =
  | { kind: 'ready' }
  | { kind: 'declining' }
  | { kind: 'declined'; declined: string[]; alreadyConfirmed: string[] }
  | { kind: 'already-confirmed'; alreadyConfirmed: string[] }
  | { kind: 'error'; message: string; retry: boolean }

export const declineTexts = {
  missingToken: 'This link is incomplete: it has no token. Open the link from the email again.',
  missingEmail: 'This link is incomplete: it has no email address. Open the link from the email again.',
  invalid: 'This link is not valid.',
  unreachable: 'We could not reach Growletter. Check your connection and try again.',
} as const

const list = (names: string[]) => new Intl.ListFormat('en', { type: 'conjunction' }).format(names)

function stateOf(result: DeclineResult): DeclineState {
  if (!result.success) return { kind: 'error', message: result.error ?? declineTexts.invalid, retry: false }
  if (result.declined.length > 0)
    return { kind: 'declined', declined: result.declined, alreadyConfirmed: result.alreadyConfirmed }
  return { kind: 'already-confirmed', alreadyConfirmed: result.alreadyConfirmed }
}

const ICONS = {
  ready: <MailXIcon className="size-10 text-muted-foreground" aria-hidden="true" />,
  declining: <Loader2Icon className="size-10 animate-spin text-muted-foreground" aria-hidden="true" />,
  declined: <CircleSlashIcon className="size-10 text-green-600" aria-hidden="true" />,
  'already-confirmed': <InfoIcon className="size-10 text-blue-600" aria-hidden="true" />,
  error: <AlertTriangleIcon className="size-10 text-red-600" aria-hidden="true" />,
}

function StateText({ state }: { state: DeclineState }) {
  switch (state.kind) {
    case 'ready':
    case 'declining':
      return (
        <>
          <h1 className="text-2xl font-semibold">Decline this subscription?</h1>
          <p className="text-muted-foreground">
            If you did not ask to subscribe, decline: you will not be subscribed, nothing more is sent to you about it,
            and nobody is charged for your address.
          </p>
        </>
      )
    case 'declined':
      return (
        <>
          <h1 className="text-2xl font-semibold">Subscription declined</h1>
          <p className="text-muted-foreground">
            You are not subscribed to {list(state.declined)}. Nothing more will be sent to you about it, and nobody was
            charged.
          </p>
          {state.alreadyConfirmed.length > 0 && (
            <p className="text-muted-foreground">
              {list(state.alreadyConfirmed)} {state.alreadyConfirmed.length > 1 ? 'were' : 'was'} already confirmed and
              stays: to stop it, use the unsubscribe link in its emails.
            </p>
          )}
        </>
      )
    case 'already-confirmed':
      return (
        <>
          <h1 className="text-2xl font-semibold">Already confirmed</h1>
          <p className="text-muted-foreground">
            {state.alreadyConfirmed.length > 0
              ? `Your subscription to ${list(state.alreadyConfirmed)} was confirmed, so it can no longer be declined.`
              : 'This subscription was confirmed, so it can no longer be declined.'}{' '}
            To stop receiving it, use the unsubscribe link at the bottom of its emails.
          </p>
        </>
      )
    case 'error':
      return (
        <>
          <h1 className="text-2xl font-semibold">Could not decline</h1>
          <p className="text-muted-foreground">{state.message}</p>
        </>
      )
  }
}

export function DeclineSubscriptionView({ token, email }: { token: string | null; email: string | null }) {
  const mutation = useSubscriptionDeclineMutation()
  const incomplete = !token ? declineTexts.missingToken : !email ? declineTexts.missingEmail : null
  const state: DeclineState = incomplete
    ? { kind: 'error', message: incomplete, retry: false }
    : mutation.isPending
      ? { kind: 'declining' }
      : mutation.isError
        ? { kind: 'error', message: declineTexts.unreachable, retry: true }
        : mutation.data
          ? stateOf(mutation.data)
          : { kind: 'ready' }
  const decline = () => {
    if (token && email) mutation.mutate({ token, email })
  }
  const asks = state.kind === 'ready' || state.kind === 'declining' || (state.kind === 'error' && state.retry)

  return (
    <section
      className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-16 text-center"
      data-testid="decline"
      data-state={state.kind}
    >
      {ICONS[state.kind]}
      <div role={state.kind === 'error' ? 'alert' : 'status'} className="flex flex-col gap-2">
        <StateText state={state} />
      </div>
      <div className="flex flex-wrap justify-center gap-3">
        {asks && (
          <Button onClick={decline} disabled={state.kind === 'declining'}>
            {state.kind === 'declining' && <Loader2Icon className="animate-spin" aria-hidden="true" />}
            {state.kind === 'error' ? 'Try again' : 'Decline'}
          </Button>
        )}
        <Button asChild variant={asks ? 'outline' : 'default'}>
          <Link to={paths.home}>Return to Home</Link>
        </Button>
      </div>
    </section>
  )
}
