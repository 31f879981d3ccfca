/** Payout requests: an open one is marked paid after a confirmation that states the amount and takes the transfer reference. */
import { useState } from 'react'
import { toast } from '@/lib/toast'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { useAllPayoutRequestsQuery } from '../api/all-payout-requests-query'
import { formatCredits, formatDateTime } from '@/lib/format'
import { payoutStatus } from '@/lib/vocabulary'
import { QueryError } from '@/components/query-error'
import { MarkPaidDialog } from './mark-paid-dialog'

export function AllPayoutsPanel() {
  const payouts = useAllPayoutRequestsQuery()
  const [paying, setPaying] = useState<{ id: string; amount: number; who: string } | null>(null)
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
  return (
    <>
      <ul className="space-y-2" aria-label="Payout requests">
        {payouts.data.map((p) => {
          const who = p.publisher?.full_name || 'A publisher without a name'
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
                <p className="text-muted-foreground">
                  Requested {formatDateTime(p.created_at)}
                  {p.paid_at && ` · paid ${formatDateTime(p.paid_at)}`}
                  {p.transfer_reference && ` · transfer ${p.transfer_reference}`}
                </p>
              </div>
              {p.status === 'requested' ? (
                <Button
                  size="sm"
                  aria-label={`Mark paid ${formatCredits(p.amount)} to ${who}`}
                  onClick={() => setPaying({ id: p.id, amount: Number(p.amount), who })}
                >
                  Mark paid
                </Button>
              ) : (
                <Badge variant={payoutStatus(p.status).tone}>{payoutStatus(p.status).label}</Badge>
              )}
            </li>
          )
        })}
      </ul>
      <MarkPaidDialog
        payout={paying}
        onClose={() => setPaying(null)}
        onPaid={() => toast.success('Payout marked paid')}
      />
    </>
  )
}
