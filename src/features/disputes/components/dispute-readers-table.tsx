/**
 * The readers a dispute is about, as the publisher sees them: newsletter, confirmed at, the earning and what
 * happens to it. Never an email address (PRODUCT: publishers never see subscriber emails, only what they earned).
 */
import { Badge } from '@/components/ui/badge'
import { Skeleton } from '@/components/ui/skeleton'
import { DataTable, dataTableColumns } from '@/components/data-table'
import { QueryError } from '@/components/query-error'
import { SubscriberEvidenceToggle } from '@/components/subscriber-evidence'
import { formatCredits, formatDateTime } from '@/lib/format'
import { disputedReaderState } from '@/lib/vocabulary'
import { usePublisherDisputeReadersQuery, type DisputedReader } from '../api/publisher-dispute-readers-query'

const col = dataTableColumns<DisputedReader>()

const columns = [
  col.accessor('campaign_name', { header: 'Newsletter', meta: { primary: true } }),
  col.accessor('confirmed_at', {
    header: 'Confirmed',
    sortFn: 'datetime',
    cell: ({ getValue }) => (getValue() ? formatDateTime(getValue()) : '—'),
  }),
  col.accessor('earning', {
    header: 'Your earning',
    meta: { align: 'right' },
    cell: ({ getValue }) => formatCredits(getValue()),
  }),
  col.accessor('state', {
    header: 'Now',
    cell: ({ getValue }) => (
      <Badge variant={disputedReaderState(getValue()).tone}>{disputedReaderState(getValue()).label}</Badge>
    ),
  }),
  col.accessor('subscription_id', {
    header: 'Evidence',
    enableSorting: false,
    cell: ({ getValue }) => <SubscriberEvidenceToggle subscriptionId={getValue()} />,
  }),
]

export function DisputeReadersTable({ disputeId, total }: { disputeId: string; total: number }) {
  const readers = usePublisherDisputeReadersQuery(disputeId)
  if (readers.isPending) return <Skeleton className="h-20" />
  if (readers.isError)
    return (
      <QueryError
        title="We couldn't load the readers of this dispute. Try again."
        error={readers.error}
        onRetry={() => void readers.refetch()}
      />
    )
  if (readers.data.length === 0)
    return (
      <p className="text-sm text-muted-foreground">
        No reader of this source was still in screening when the dispute opened: no earnings are at stake.
      </p>
    )
  return (
    <>
      <DataTable
        columns={columns}
        data={readers.data}
        caption="Readers in this dispute"
        getRowId={(r) => r.subscription_id}
        rowTestId="disputed-reader"
        initialSorting={[{ id: 'confirmed_at', desc: false }]}
      />
      {total > readers.data.length && (
        <p className="text-xs text-muted-foreground">
          The first {readers.data.length} of {total} readers, oldest first.
        </p>
      )}
    </>
  )
}
