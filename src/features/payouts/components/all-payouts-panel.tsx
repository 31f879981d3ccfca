/**
 * Every payout request for admins: payouts in flight (a Stripe transfer being sent), failed ones with Stripe's reason
 * and "Retry", and "Mark paid by hand" for publishers paid outside Stripe — each behind a confirmation that states
 * the amount.
 */
import { useState } from 'react'
import { toast } from '@/lib/toast'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { useAllPayoutRequestsQuery, type AnyPayoutRequest } from '../api/all-payout-requests-query'
import { formatCredits, formatDateTime } from '@/lib/format'
import { payoutStatus } from '@/lib/vocabulary'
import { QueryError } from '@/components/query-error'
import { MarkPaidDialog } from './mark-paid-dialog'
import { RetryPayoutDialog } from './retry-payout-dialog'

type Target = { id: string; amount: number; who: string }

function dates(p: AnyPayoutRequest) {
  return [
    `Requested ${formatDateTime(p.created_at)}`,
    p.status === 'paid' && p.paid_at && `paid ${formatDateTime(p.paid_at)}`,
    p.status === 'failed' && p.failed_at && `failed ${formatDateTime(p.failed_at)}`,
    p.status === 'paid' && p.transfer_reference && `transfer ${p.transfer_reference}`,
  ]
    .filter(Boolean)
    .join(' · ')
}

export function AllPayoutsPanel() {
  const payouts = useAllPayoutRequestsQuery()
  const [paying, setPaying] = useState<Target | null>(null)
  const [retrying, setRetrying] = useState<(Target & { reason: string | null }) | null>(null)
  if (payouts.isPending) {
    return (
      <div role="status" aria-label="Loading payout requests">
        <Skeleton className="h-24" />
      </div>
    )
  }
  if (payouts.isError) {
    return (
      <QueryError title="Could not load payout requests" error={payouts.error} onRetry={() => void payouts.refetch()} />
    )
  }
  if (payouts.data.length === 0) return <p className="text-muted-foreground">No payout requests yet.</p>
  const inFlight = payouts.data.filter((p) => p.status === 'sending').length
  const failed = payouts.data.filter((p) => p.status === 'failed').length
  return (
    <>
      <p className="mb-3 text-sm text-muted-foreground" data-testid="admin-payout-summary">
        {inFlight} in flight · {failed} failed
      </p>
      <ul className="space-y-2" aria-label="Payout requests">
        {payouts.data.map((p) => {
          const who = p.publisher?.full_name || 'A publisher without a name'
          const target = { id: p.id, amount: Number(p.amount), who }
          const open = p.status === 'requested' || p.status === 'failed'
          return (
            <li
              key={p.id}
              className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-3 text-sm"
              data-testid="admin-payout-row"
            >
              <div>
                <p className="font-medium">
                  {who} · {formatCredits(p.amount)}
                </p>
                <p className="text-muted-foreground">{dates(p)}</p>
                {p.status === 'failed' && p.failure_reason && (
                  <p className="text-red-700">Stripe refused the transfer: {p.failure_reason}</p>
                )}
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <Badge variant={payoutStatus(p.status).tone}>{payoutStatus(p.status).label}</Badge>
                {p.status === 'failed' && (
                  <Button
                    size="sm"
                    aria-label={`Retry ${formatCredits(p.amount)} to ${who}`}
                    onClick={() => setRetrying({ ...target, reason: p.failure_reason })}
                  >
                    Retry
                  </Button>
                )}
                {open && (
                  <Button
                    size="sm"
                    variant="outline"
                    aria-label={`Mark paid by hand ${formatCredits(p.amount)} to ${who}`}
                    onClick={() => setPaying(target)}
                  >
                    Mark paid by hand
                  </Button>
                )}
              </div>
            </li>
          )
        })}
      </ul>
      <MarkPaidDialog
        payout={paying}
        onClose={() => setPaying(null)}
        onPaid={() => toast.success('Payout marked paid')}
      />
      <RetryPayoutDialog
        payout={retrying}
        onClose={() => setRetrying(null)}
        onRetried={() => toast.success('Payout sent again')}
      />
    </>
  )
}
