/**
 * The disputes about the publisher's sources: those still waiting for an answer first, each with its readers, the
 * earnings at stake (from the database), the deadline, the status and the outcome; a table on a desk, cards on a
 * phone. Each opens to its page, where the publisher answers.
 */
import { Link } from 'react-router-dom'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { DataTable, dataTableColumns } from '@/components/data-table'
import { QueryError } from '@/components/query-error'
import { paths } from '@/config/paths'
import { formatCredits, formatDateTime } from '@/lib/format'
import { metrics } from '@/lib/metrics'
import { disputeStatus } from '@/lib/vocabulary'
import { answerWindow } from '../answer-window'
import { usePublisherDisputesQuery, type PublisherDispute } from '../api/publisher-disputes-query'

const col = dataTableColumns<PublisherDispute>()

/** The decision in the publisher's own money (PRODUCT "each side sees a dispute's outcome in its own money"). */
export function publisherOutcome(d: Pick<PublisherDispute, 'status' | 'refunded_subscribers' | 'earnings_cancelled'>) {
  if (d.status === 'upheld')
    return `${metrics.disputeEarningsCancelled.label} for ${d.refunded_subscribers} subscriber${d.refunded_subscribers === 1 ? '' : 's'} (${formatCredits(d.earnings_cancelled)}).`
  return 'Your earnings stand.'
}

function AnswerState({ dispute }: { dispute: PublisherDispute }) {
  const window = answerWindow(dispute)
  if (window.kind === 'answered') return <>Answered {formatDateTime(window.at)}</>
  if (window.kind === 'waiting')
    return <strong className="font-medium text-amber-800">Answer by {formatDateTime(window.until)}</strong>
  return <>No answer within 72 hours</>
}

const columns = [
  col.accessor('source_name', {
    header: 'Source',
    meta: { primary: true },
    cell: ({ row }) => (
      <Link to={paths.publisher.dispute(row.original.id)} className="font-medium text-primary hover:underline">
        {row.original.source_name}
        <span className="block text-xs font-normal text-muted-foreground">
          {row.original.kind === 'source' ? 'The whole source' : 'Some readers'}
          {row.original.newsletters ? ` · ${row.original.newsletters}` : ''}
        </span>
      </Link>
    ),
  }),
  col.accessor('reason', {
    header: 'The advertiser says',
    enableSorting: false,
    cell: ({ getValue }) => (
      <span className="line-clamp-3 text-left whitespace-pre-line" data-testid="dispute-row-reason">
        {getValue()}
      </span>
    ),
  }),
  col.accessor('status', {
    header: 'Status',
    cell: ({ row }) => {
      const d = row.original
      return (
        <span className="flex flex-col items-end gap-1 md:items-start">
          <Badge variant={disputeStatus(d.status).tone}>{disputeStatus(d.status).label}</Badge>
          {d.status === 'open' ? (
            <span className="text-xs">
              <AnswerState dispute={d} />
            </span>
          ) : (
            <span className="text-xs" data-testid="dispute-outcome">
              {publisherOutcome(d)} Admin’s note: {d.decision_note}
            </span>
          )}
        </span>
      )
    },
  }),
  col.accessor('readers', { header: 'Readers', meta: { align: 'right' } }),
  col.accessor('earnings_at_stake', {
    header: metrics.disputeEarningsAtStake.label,
    meta: { align: 'right' },
    cell: ({ row }) => (row.original.status === 'open' ? formatCredits(row.original.earnings_at_stake) : '—'),
  }),
  col.accessor('created_at', {
    header: 'Opened',
    sortFn: 'datetime',
    cell: ({ getValue }) => formatDateTime(getValue()),
  }),
  col.display({
    id: 'actions',
    header: '',
    meta: { actions: true },
    cell: ({ row }) => (
      <Button asChild size="sm" variant={row.original.can_answer ? 'default' : 'outline'}>
        <Link
          to={paths.publisher.dispute(row.original.id)}
          aria-label={`${row.original.can_answer ? 'Answer' : 'View'} the dispute about ${row.original.source_name}`}
        >
          {row.original.can_answer ? 'Answer' : 'View'}
        </Link>
      </Button>
    ),
  }),
]

export function PublisherDisputesTable() {
  const disputes = usePublisherDisputesQuery()
  if (disputes.isPending) {
    return (
      <div role="status" aria-label="Loading disputes">
        <Skeleton className="h-24" />
      </div>
    )
  }
  if (disputes.isError)
    return (
      <QueryError
        title="We couldn't load your disputes. Try again."
        error={disputes.error}
        onRetry={() => void disputes.refetch()}
      />
    )
  if (disputes.data.length === 0)
    return <p className="text-sm text-muted-foreground">No advertiser has disputed subscribers of your sources.</p>
  const waiting = disputes.data.filter((d) => d.can_answer).length
  return (
    <div className="flex flex-col gap-3">
      {waiting > 0 && (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          {waiting === 1 ? 'One dispute waits' : `${waiting} disputes wait`} for your answer. Until an admin decides,
          the earnings at stake are held, not lost.
        </p>
      )}
      <DataTable
        columns={columns}
        data={disputes.data}
        caption="Disputes about your sources"
        getRowId={(d) => d.id}
        rowTestId="publisher-dispute"
      />
    </div>
  )
}
