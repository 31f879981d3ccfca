/** Payouts: the publisher's figures from the database, the request dialog, and the history with references. */
import { Badge } from '@/components/ui/badge'
import { payoutStatus } from '@/lib/vocabulary'
import { usePublisherEarningsQuery } from '../api/publisher-earnings-query'
import { MIN_PAYOUT } from '@rules/payout'
import { useMyPayoutRequestsQuery } from '../api/my-payout-requests-query'
import { formatCredits, formatDateTime } from '@/lib/format'
import { PanelState } from '@/components/panel-state'
import { PayoutRequestDialog } from './payout-request-dialog'

export function MyPayoutsPanel({ userId }: { userId: string }) {
  const earnings = usePublisherEarningsQuery(userId)
  const payouts = useMyPayoutRequestsQuery(userId)

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
              <PayoutRequestDialog userId={userId} available={earnings.data.available} />
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
              <li
                key={p.id}
                className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm"
                data-testid="payout-row"
              >
                <span>Requested {formatDateTime(p.created_at)}</span>
                <span className="font-medium">{formatCredits(Number(p.amount))}</span>
                {p.status === 'paid' && (
                  <span className="text-muted-foreground">
                    Paid {p.paid_at ? formatDateTime(p.paid_at) : ''} · transfer {p.transfer_reference}
                  </span>
                )}
                <Badge variant={payoutStatus(p.status).tone}>{payoutStatus(p.status).label}</Badge>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}
