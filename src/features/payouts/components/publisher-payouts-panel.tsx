/**
 * Payouts: the publisher's figures from the database, the request dialog (disabled, with the reason, until the
 * Stripe payout account is ready), and the history with each payout's status, transfer reference, why it failed
 * (Stripe's reason, or the account no longer ready), what Stripe reversed, and dates.
 */
import { useEffect, useRef } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { Badge } from '@/components/ui/badge'
import { payoutStatus } from '@/lib/vocabulary'
import { usePublisherEarningsQuery } from '../api/publisher-earnings-query'
import { MIN_PAYOUT } from '@rules/payout'
import { useMyPayoutRequestsQuery } from '../api/publisher-payout-requests-query'
import { formatCredits, formatDateTime } from '@/lib/format'
import { PAYOUT_ACCOUNT_MESSAGES } from '@rules/payout'
import { usePayoutAccountQuery } from '../api/payout-account-query'
import { PanelState } from '@/components/panel-state'
import { PayoutRequestDialog } from './payout-request-dialog'
import { payoutKeys } from '../keys'

export function MyPayoutsPanel({ userId }: { userId: string }) {
  const earnings = usePublisherEarningsQuery(userId)
  const payouts = useMyPayoutRequestsQuery(userId)
  const account = usePayoutAccountQuery(userId)
  const queryClient = useQueryClient()
  // When a payout on its way is recorded paid or failed, the figures above change too: read them again.
  const open = payouts.data?.filter((p) => p.status === 'requested' || p.status === 'sending').length ?? 0
  const openBefore = useRef(open)
  useEffect(() => {
    if (open < openBefore.current) void queryClient.invalidateQueries({ queryKey: payoutKeys.earnings(userId) })
    openBefore.current = open
  }, [open, queryClient, userId])
  // The database refuses a request without a ready account in these words too; until the account is known, wait.
  const blockedBecause = account.isSuccess
    ? account.data.state === 'ready'
      ? null
      : PAYOUT_ACCOUNT_MESSAGES[account.data.state]
    : 'Checking your payout setup…'

  return (
    <div className="flex flex-col gap-6">
      <section className="flex flex-col gap-3 rounded-lg border bg-card p-4" aria-labelledby="payout-title">
        <h2 id="payout-title" className="text-xl font-semibold">
          Request a payout
        </h2>
        {earnings.isPending ? (
          <PanelState state="loading" />
        ) : earnings.isError ? (
          <PanelState state="error" message={earnings.error.message} />
        ) : (
          <>
            <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
              {(
                [
                  ['Available', earnings.data.available, 'payout-available'],
                  ['In screening', earnings.data.pending, 'payout-pending'],
                  ['Requested', earnings.data.requested, 'payout-requested'],
                  ['Paid', earnings.data.paid, 'payout-paid'],
                ] as const
              ).map(([label, value, testId]) => (
                <div key={label}>
                  <dt className="text-muted-foreground">{label}</dt>
                  <dd className="font-semibold" data-testid={testId}>
                    {formatCredits(value)}
                  </dd>
                </div>
              ))}
            </dl>
            <p className="text-sm text-muted-foreground">
              {earnings.data.available >= MIN_PAYOUT
                ? 'Earnings become available when their 7-day screening ends.'
                : `You can request a payout once ${MIN_PAYOUT} credits are available; earnings become available when their 7-day screening ends.`}
            </p>
            <div>
              <PayoutRequestDialog
                userId={userId}
                available={earnings.data.available}
                blockedBecause={blockedBecause}
              />
            </div>
          </>
        )}
      </section>
      <section className="flex flex-col gap-2" aria-labelledby="payout-history-title">
        <h2 id="payout-history-title" className="text-xl font-semibold">
          History
        </h2>
        {payouts.isPending ? (
          <PanelState state="loading" />
        ) : payouts.isError ? (
          <PanelState state="error" message={payouts.error.message} />
        ) : payouts.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No payout requests yet.</p>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Payout history">
            {payouts.data.map((p) => (
              <li key={p.id} className="flex flex-col gap-1 p-3 text-sm" data-testid="payout-row">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-medium">{formatCredits(Number(p.amount))}</span>
                  <Badge variant={payoutStatus(p.status).tone}>{payoutStatus(p.status).label}</Badge>
                </div>
                <p className="text-muted-foreground">
                  Requested {formatDateTime(p.created_at)}
                  {(p.status === 'paid' || p.status === 'reversed') &&
                    p.paid_at &&
                    ` · paid ${formatDateTime(p.paid_at)}`}
                  {p.status === 'failed' && p.failed_at && ` · failed ${formatDateTime(p.failed_at)}`}
                  {p.reversed_at && ` · reversed ${formatDateTime(p.reversed_at)}`}
                </p>
                {(p.status === 'paid' || p.status === 'reversed') && p.transfer_reference && (
                  <p className="text-muted-foreground">
                    Transfer reference <span className="font-mono text-foreground">{p.transfer_reference}</span>
                  </p>
                )}
                {p.status === 'failed' && (
                  <p className="text-red-700">
                    {p.failure_reason
                      ? `${p.failed_before_transfer ? 'Not sent' : 'Stripe refused the transfer'}: ${p.failure_reason.replace(/\.$/, '')}. `
                      : ''}
                    The amount is available again.
                  </p>
                )}
                {Number(p.amount_reversed) > 0 && (
                  <p className="text-red-700">
                    Stripe reversed {formatCredits(p.amount_reversed)} of this transfer: the money came back and is
                    available again.
                  </p>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}
