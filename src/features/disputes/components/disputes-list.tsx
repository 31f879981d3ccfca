/** The disputes the signed-in user is a side of, with their outcome (advertisers and publishers alike). */
import { Badge } from '@/components/ui/badge'
import { Skeleton } from '@/components/ui/skeleton'
import { QueryError } from '@/components/query-error'
import { formatCredits, formatDateTime } from '@/lib/format'
import { useMyDisputesQuery } from '../api/my-disputes-query'
import { metrics } from '@/lib/metrics'

const statusBadge = { open: 'yellow', upheld: 'green', rejected: 'grey' } as const
const statusLabel = { open: 'Open', upheld: 'Upheld', rejected: 'Rejected' } as const

export function DisputesList({ side }: { side: 'advertiser' | 'publisher' }) {
  const disputes = useMyDisputesQuery()
  if (disputes.isPending) {
    return (
      <div role="status" aria-label="Loading disputes">
        <Skeleton className="h-16" />
      </div>
    )
  }
  if (disputes.isError)
    return <QueryError title="Could not load disputes" error={disputes.error} onRetry={() => void disputes.refetch()} />
  if (disputes.data.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        {side === 'advertiser'
          ? 'You have not disputed any subscribers.'
          : 'No advertiser has disputed subscribers of your sources.'}
      </p>
    )
  }
  return (
    <ul className="space-y-2" aria-label="Disputes">
      {disputes.data.map((d) => {
        const status = d.status as keyof typeof statusLabel
        return (
          <li key={d.id} className="space-y-1 rounded-lg border p-3 text-sm" data-testid="dispute-row">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-medium">
                {d.kind === 'source' ? 'Whole source' : 'Subscribers'} of{' '}
                {d.source?.name ?? 'a source no longer listed'}
              </span>
              <Badge variant={statusBadge[status] ?? 'grey'}>{statusLabel[status] ?? d.status}</Badge>
            </div>
            <p className="text-muted-foreground">
              Opened {formatDateTime(d.created_at)}
              {side === 'advertiser' ? `: “${d.reason}”` : ''}
            </p>
            {d.status !== 'open' && (
              <p data-testid="dispute-outcome">
                {d.status === 'upheld'
                  ? // Each side in its own money: the advertiser's refund, the publisher's cancelled share.
                    `${side === 'advertiser' ? metrics.disputeRefunded.label : `${metrics.disputeEarningsCancelled.label} for`} ${d.refunded_subscribers} subscriber${d.refunded_subscribers === 1 ? '' : 's'} (${formatCredits(side === 'advertiser' ? d.refunded : d.earnings_cancelled)}).`
                  : 'No refund.'}{' '}
                Admin’s note: {d.decision_note}
              </p>
            )}
          </li>
        )
      })}
    </ul>
  )
}
