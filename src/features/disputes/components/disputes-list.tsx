/**
 * The advertiser's disputes: each with the publisher's side (their answer and evidence, or the 72 hours they have)
 * and the outcome in the advertiser's own money. The publisher's side of the same disputes is
 * publisher-disputes-table.tsx.
 */
import { Badge } from '@/components/ui/badge'
import { Skeleton } from '@/components/ui/skeleton'
import { QueryError } from '@/components/query-error'
import { formatCredits, formatDateTime } from '@/lib/format'
import { metrics } from '@/lib/metrics'
import { disputeStatus } from '@/lib/vocabulary'
import { answerWindow } from '../answer-window'
import { useMyDisputesQuery, type MyDispute } from '../api/advertiser-disputes-query'
import { useDisputeAtStakeQuery } from '../api/dispute-at-stake-query'
import { EmailAddress } from '@/components/email-address'
import { EvidenceLinks } from './publisher-dispute'

function PublisherSide({ dispute }: { dispute: MyDispute }) {
  const window = answerWindow(dispute)
  if (window.kind === 'answered')
    return (
      <div className="space-y-1" data-testid="dispute-publisher-answer">
        <p>
          The publisher answered {formatDateTime(window.at)}: “{dispute.answer}”
        </p>
        <EvidenceLinks links={dispute.answer_links} />
      </div>
    )
  if (window.kind === 'waiting')
    return (
      <p className="text-muted-foreground">
        The publisher can answer until {formatDateTime(window.until)}; an admin decides after that. Meanwhile these
        charges stay on hold.
      </p>
    )
  return <p className="text-muted-foreground">The publisher did not answer within 72 hours.</p>
}

/** Which readers a dispute is about and, while it is open, the charges held for them (dispute_at_stake). */
function DisputedReaders({ dispute }: { dispute: MyDispute }) {
  const open = dispute.status === 'open'
  const stake = useDisputeAtStakeQuery(dispute.id)
  const readers = dispute.readers ?? []
  const shown = readers.slice(0, 5)
  return (
    <div className="space-y-1" data-testid="dispute-readers">
      <p>
        {readers.length} reader{readers.length === 1 ? '' : 's'}
        {open && stake.data ? (
          <>
            {' · '}
            {metrics.disputeChargesAtStake.label} {formatCredits(stake.data.charged)}
          </>
        ) : null}
      </p>
      {shown.length > 0 ? (
        <ul className="text-xs text-muted-foreground">
          {shown.map((r) => (
            <li key={r.subscription_id}>
              <EmailAddress email={r.subscriber?.email ?? 'an address no longer listed'} />
              {r.refunded ? ' · refunded' : ''}
            </li>
          ))}
          {readers.length > shown.length ? <li>and {readers.length - shown.length} more</li> : null}
        </ul>
      ) : null}
    </div>
  )
}

export function DisputesList() {
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
  if (disputes.data.length === 0)
    return <p className="text-sm text-muted-foreground">You have not disputed any subscribers.</p>
  return (
    <ul className="space-y-2" aria-label="Disputes">
      {disputes.data.map((d) => (
        <li key={d.id} className="space-y-1 rounded-lg border p-3 text-sm" data-testid="dispute-row">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span className="font-medium">
              {d.kind === 'source' ? 'Whole source' : 'Subscribers'} of {d.source?.name ?? 'a source no longer listed'}
            </span>
            <Badge variant={disputeStatus(d.status).tone}>{disputeStatus(d.status).label}</Badge>
          </div>
          <p className="text-muted-foreground">
            Opened {formatDateTime(d.created_at)}: “{d.reason}”
          </p>
          <DisputedReaders dispute={d} />
          <PublisherSide dispute={d} />
          {d.status !== 'open' && (
            <p data-testid="dispute-outcome">
              {d.status === 'upheld'
                ? `${metrics.disputeRefunded.label} ${d.refunded_subscribers} subscriber${d.refunded_subscribers === 1 ? '' : 's'} (${formatCredits(d.refunded)}).`
                : 'No refund.'}{' '}
              Admin’s note: {d.decision_note}
            </p>
          )}
        </li>
      ))}
    </ul>
  )
}
