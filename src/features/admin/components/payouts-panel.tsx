/** Payout requests: open ones can be marked paid (the database re-checks the publisher's balance). */
import { toast } from '@/lib/toast'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { usePayoutRequestsQuery } from '../api/payout-requests-query'
import { usePayoutPaidMutation } from '../api/payout-paid-mutation'
import { formatCredits, formatDateTime } from '@/lib/format'
import { QueryError } from '@/components/query-error'

export function PayoutsPanel() {
  const payouts = usePayoutRequestsQuery()
  const paid = usePayoutPaidMutation({ onSuccess: () => toast.success('Payout marked paid') })
  if (payouts.isPending) {
    return (
      <div role="status" aria-label="Loading payout requests">
        <Skeleton className="h-24" />
      </div>
    )
  }
  if (payouts.isError) {
    return <QueryError title="Could not load payout requests" error={payouts.error} onRetry={() => void payouts.refetch()} />
  }
  if (payouts.data.length === 0) return <p className="text-muted-foreground">No payout requests yet.</p>
  return (
    <ul className="space-y-2" aria-label="Payout requests">
      {payouts.data.map((p) => {
        const who = p.publisher?.full_name || 'A publisher without a name'
        return (
          <li key={p.id} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-3 text-sm">
            <div>
              <p className="font-medium">
                {who} · {formatCredits(p.amount)}
              </p>
              <p className="text-muted-foreground">
                Requested {formatDateTime(p.created_at)}
                {p.paid_at && ` · paid ${formatDateTime(p.paid_at)}`}
              </p>
            </div>
            {p.status === 'requested' ? (
              <Button size="sm" disabled={paid.isPending && paid.variables === p.id} aria-label={`Mark paid ${formatCredits(p.amount)} to ${who}`} onClick={() => paid.mutate(p.id)}>
                Mark paid
              </Button>
            ) : (
              <Badge variant={p.status === 'paid' ? 'green' : 'grey'}>{p.status}</Badge>
            )}
          </li>
        )
      })}
    </ul>
  )
}
