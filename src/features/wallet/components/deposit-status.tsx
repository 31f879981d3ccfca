/**
 * Deposits on their way: the payment the advertiser just came back from (confirming until the payments
 * webhook lands, then credited, and the balance and ledger refetched without a reload), and checkouts still
 * open that can be paid until they expire. Renders nothing when there is nothing in flight.
 */
import { useEffect, useRef, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { CheckCircle2Icon, ClockIcon, Loader2Icon, XCircleIcon } from 'lucide-react'
import { formatCredits } from '@/lib/format'
import { QueryError } from '@/components/query-error'
import { Button } from '@/components/ui/button'
import { DEPOSIT_POLL_LIMIT_MS, useDepositsQuery, watchedDeposit, type Deposit } from '../api/deposits-query'
import { useCancelDepositMutation } from '../api/cancel-deposit-mutation'
import { walletKeys } from '../keys'

const time = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' })

type DepositStatusProps = {
  userId: string
  /** The checkout session id of a payment return (`session_id`), to follow until it is credited. */
  watch?: string
  /** The checkout this tab opened and the advertiser cancelled (`payment=canceled`): closed once, on arrival. */
  canceled?: string
}

export function DepositStatus({ userId, watch, canceled }: DepositStatusProps) {
  const [startedAt] = useState(() => Date.now())
  const query = useDepositsQuery({ userId, watch }, startedAt)
  const queryClient = useQueryClient()
  const cancel = useCancelDepositMutation()
  const closeOnReturn = useCancelDepositMutation({ quiet: true })
  const closed = useRef<string | undefined>(undefined)

  useEffect(() => {
    // A cancelled checkout leaves no "awaiting payment" banner behind.
    if (!canceled || closed.current === canceled) return
    closed.current = canceled
    closeOnReturn.mutate(canceled)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per cancelled checkout
  }, [canceled])
  const watched = watchedDeposit(query.data, watch)
  const credited = watched?.status === 'completed'

  useEffect(() => {
    if (!credited || !watched) return
    // The webhook has credited the wallet: balance and ledger come again from the database. No toast: the
    // payment-return toast is showing, and one toast at a time (SPEC §9).
    void queryClient.invalidateQueries({ queryKey: walletKeys.all })
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per credited deposit, not per refetch
  }, [credited, watched?.id])

  if (query.isError) {
    return <QueryError title="Could not load your deposits" error={query.error} onRetry={() => void query.refetch()} />
  }
  if (!query.data) return null
  const others = query.data.filter(
    (d) => d.stripe_session_id !== watch && d.stripe_session_id !== canceled && d.status === 'pending',
  )
  if (!watched && others.length === 0) return null
  // Polling stops at the limit; the last answer arrived after it.
  const gaveUp = query.dataUpdatedAt - startedAt > DEPOSIT_POLL_LIMIT_MS

  return (
    <section aria-label="Deposits in progress" className="space-y-2" data-testid="deposit-status">
      {watched && <WatchedDeposit deposit={watched} gaveUp={gaveUp} />}
      {others.map((d) => (
        <p key={d.id} className="flex items-start gap-2 rounded-md border p-3 text-sm" data-testid="deposit-awaiting">
          <ClockIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <span className="flex-1">
            Deposit of {formatCredits(d.amount)}: awaiting payment.
            {d.expires_at &&
              ` The checkout stays open until ${time.format(new Date(d.expires_at))}; nothing is charged unless you pay.`}
          </span>
          <Button
            variant="outline"
            size="sm"
            disabled={cancel.isPending}
            aria-label={`Cancel the deposit of ${formatCredits(d.amount)}`}
            onClick={() => cancel.mutate(d.stripe_session_id)}
          >
            Cancel
          </Button>
        </p>
      ))}
    </section>
  )
}

function WatchedDeposit({ deposit, gaveUp }: { deposit: Deposit; gaveUp: boolean }) {
  const amount = formatCredits(deposit.amount)
  if (deposit.status === 'completed') {
    return (
      <p
        className="flex items-start gap-2 rounded-md bg-green-50 p-3 text-sm text-green-900"
        data-testid="deposit-completed"
      >
        <CheckCircle2Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>Deposit completed: {amount} added to your wallet.</span>
      </p>
    )
  }
  if (deposit.status === 'failed' || deposit.status === 'expired') {
    return (
      <p
        className="flex items-start gap-2 rounded-md bg-red-50 p-3 text-sm text-red-900"
        role="alert"
        data-testid="deposit-failed"
      >
        <XCircleIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>
          {deposit.status === 'failed'
            ? `The payment for ${amount} failed, so nothing was added. You can try again with another card.`
            : `The checkout for ${amount} expired unpaid, so nothing was charged.`}
        </span>
      </p>
    )
  }
  return (
    <p
      role="status"
      className="flex items-start gap-2 rounded-md bg-yellow-50 p-3 text-sm text-yellow-900"
      data-testid="deposit-pending"
    >
      <Loader2Icon
        className={gaveUp ? 'mt-0.5 size-4 shrink-0' : 'mt-0.5 size-4 shrink-0 animate-spin'}
        aria-hidden="true"
      />
      <span>
        {gaveUp
          ? `Deposit of ${amount} pending: the payment provider has not confirmed it yet. It is added as soon as it does; reload this page later.`
          : `Deposit of ${amount} pending: confirming your payment…`}
      </span>
    </p>
  )
}
