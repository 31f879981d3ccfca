/**
 * A campaign's confirmed subscribers: search by address, 25 a page (server-side), CSV export. Pending
 * addresses never reach this screen: the database lists confirmed subscribers only.
 */
import { useCallback, useMemo, useState } from 'react'
import { DownloadIcon } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Skeleton } from '@/components/ui/skeleton'
import { Pager } from '@/components/pager'
import { EmailAddress } from '@/components/email-address'
import { QueryError } from '@/components/query-error'
import { DataTable, dataTableColumns } from '@/components/data-table'
import { SubscriberEvidenceToggle } from '@/components/subscriber-evidence'
import { formatCredits, formatDateTime } from '@/lib/format'
import { useDebouncedSearch } from '@/lib/use-debounced-search'
import { espDeliveryStatus, readerStatus } from '@/lib/vocabulary'
import { metrics } from '@/lib/metrics'
import { SUBSCRIBERS_PAGE_SIZE, useSubscribersQuery, type SubscriberRow } from '../api/subscribers-query'
import { useSubscriberCountQuery } from '../api/subscriber-count-query'
import { useSubscriberTotalsQuery } from '../api/subscriber-totals-query'
import { useSubscribersExportMutation } from '../api/subscribers-export-mutation'
import { useEspDeliveriesQuery, type EspDelivery } from '../api/esp-deliveries-query'
import { useEspRetryMutation } from '../api/esp-retry-mutation'
import { useEspConnectionQuery, type EspConnection } from '../api/esp-connection-query'
import { RefundedInTool } from './esp-removal'

type Row = SubscriberRow & { delivery: EspDelivery | null; connection: EspConnection | null }

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`

/** What the email tool reported back about a delivered subscriber's opens and clicks (during screening). */
export function EngagementState({ delivery }: { delivery: EspDelivery }) {
  if (delivery.status !== 'delivered' || delivery.engaged === null || delivery.engaged === undefined) return null
  const counts =
    delivery.opens !== null && delivery.clicks !== null
      ? `: ${plural(delivery.opens, 'open')}, ${plural(delivery.clicks, 'click')}`
      : ''
  // "Engaged" is a counted open or click (the evidence row and engagement-verified pay use the same); opens alone
  // count only where the tool tells machines apart (privacy proxies open every email).
  if (delivery.counted_engagement)
    return (
      <span className="block text-xs font-medium text-green-700" data-testid="esp-engagement">
        Engaged{counts}
      </span>
    )
  return delivery.engaged ? (
    <span className="block text-xs text-muted-foreground" data-testid="esp-engagement">
      Not engaged{counts}: opens alone do not count
    </span>
  ) : (
    <span className="block text-xs text-muted-foreground" data-testid="esp-engagement">
      No opens or clicks yet
    </span>
  )
}

/**
 * Where the subscriber stands in the advertiser's email tool, with the provider's words and Retry when it failed. A
 * refunded reader who was delivered is still in the tool until the advertiser removes them there ("Remove from <tool>",
 * esp-removal.tsx), which shows the outcome.
 */
export function DeliveryState({
  delivery,
  refunded = false,
  subscription,
  connection,
}: {
  delivery: EspDelivery | null
  refunded?: boolean
  subscription?: { id: string; email: string }
  connection?: EspConnection | null
}) {
  const retry = useEspRetryMutation()
  if (refunded)
    return (
      <span data-testid="esp-delivery-state">
        {delivery ? espDeliveryStatus(delivery.status).label : 'Not sent'}
        {delivery?.status === 'delivered' && subscription ? (
          <RefundedInTool
            delivery={delivery}
            subscriptionId={subscription.id}
            email={subscription.email}
            connection={connection}
          />
        ) : (
          <span className="block text-xs text-muted-foreground" data-testid="esp-refunded-state">
            Not in your email tool: nothing to remove.
          </span>
        )}
      </span>
    )
  if (!delivery) return <span className="text-muted-foreground">Not sent</span>
  const word = espDeliveryStatus(delivery.status)
  return (
    <span data-testid="esp-delivery-state">
      {word.label}
      <EngagementState delivery={delivery} />
      {delivery.status === 'queued' && delivery.last_error ? (
        <span className="block text-xs text-muted-foreground">Retrying: {delivery.last_error}</span>
      ) : null}
      {delivery.status === 'failed' ? (
        <>
          {delivery.last_error ? (
            <span className="block text-xs break-words text-destructive">{delivery.last_error}</span>
          ) : null}
          <Button
            size="sm"
            variant="outline"
            className="mt-1"
            disabled={retry.isPending}
            onClick={() => retry.mutate(delivery.id)}
          >
            Retry
          </Button>
        </>
      ) : null}
    </span>
  )
}

/** Whether the advertiser paid for this subscriber, and if not, why — in words. */
export function chargeLabel(
  row: Pick<SubscriberRow, 'counted' | 'price' | 'reason_label' | 'source_name'> &
    Partial<Pick<SubscriberRow, 'not_counted_reason'>>,
): string {
  if (row.counted) return `Paid ${formatCredits(row.price)}`
  if (row.not_counted_reason === 'refunded') return 'Charge given back during screening'
  if (row.reason_label) return `Not charged: ${row.reason_label}`
  return row.source_name ? 'Not charged' : 'Free (no source)'
}

const col = dataTableColumns<Row>()
// The database orders the list (newest first, a page at a time); columns are not re-sorted within a page.
const columns = [
  col.accessor('email', {
    header: 'Email',
    enableSorting: false,
    meta: { primary: true },
    cell: (c) => <EmailAddress email={c.getValue()} />,
  }),
  col.accessor('confirmed_at', {
    header: 'Confirmed',
    enableSorting: false,
    cell: (c) => <span className="whitespace-nowrap">{formatDateTime(c.getValue())}</span>,
  }),
  col.accessor('source_name', {
    header: 'Source',
    enableSorting: false,
    cell: (c) => c.getValue() ?? 'Direct (no source)',
  }),
  col.accessor('status', {
    header: 'Status',
    enableSorting: false,
    cell: ({ row }) => (
      <>
        {readerStatus(row.original.status, row.original.not_counted_reason).label}
        <span className="block text-xs text-muted-foreground">{chargeLabel(row.original)}</span>
      </>
    ),
  }),
  col.accessor('delivery', {
    header: 'Email tool',
    enableSorting: false,
    cell: (c) => (
      <DeliveryState
        delivery={c.getValue()}
        refunded={c.row.original.not_counted_reason === 'refunded'}
        subscription={c.row.original}
        connection={c.row.original.connection}
      />
    ),
  }),
  col.accessor('id', {
    header: 'Evidence',
    enableSorting: false,
    // On a phone under the fields, the card's whole width: the evidence's own labels and values need it.
    meta: { actions: true },
    cell: (c) => <SubscriberEvidenceToggle subscriptionId={c.getValue()} />,
  }),
]

export function SubscriberList({ campaignId }: { campaignId: string }) {
  const [committed, setCommitted] = useState('')
  const [page, setPage] = useState(0)
  const commit = useCallback((value: string) => {
    setCommitted(value.trim())
    setPage(0)
  }, [])
  const [search, setSearch] = useDebouncedSearch(committed, commit)
  const rows = useSubscribersQuery(campaignId, committed, page)
  const count = useSubscriberCountQuery(campaignId, committed)
  const totals = useSubscriberTotalsQuery(campaignId)
  const exporter = useSubscribersExportMutation()
  const ids = useMemo(() => (rows.data ?? []).map((r) => r.id), [rows.data])
  const deliveries = useEspDeliveriesQuery(ids)
  const connection = useEspConnectionQuery(campaignId)
  const data = useMemo<Row[]>(() => {
    const bySubscription = new Map((deliveries.data ?? []).map((d) => [d.subscription_id, d]))
    return (rows.data ?? []).map((r) => ({
      ...r,
      delivery: bySubscription.get(r.id) ?? null,
      connection: connection.data ?? null,
    }))
  }, [rows.data, deliveries.data, connection.data])

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid w-full max-w-sm gap-1.5">
          <label htmlFor="subscriber-search" className="text-sm font-medium">
            Search by email
          </label>
          <Input
            id="subscriber-search"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="name@example.com"
          />
        </div>
        <Button
          variant="outline"
          onClick={() => exporter.mutate(campaignId)}
          disabled={exporter.isPending}
          data-testid="export-subscribers"
        >
          <DownloadIcon className="size-4" aria-hidden />
          {exporter.isPending ? 'Preparing CSV…' : 'Export CSV'}
        </Button>
      </div>
      {rows.isPending ? (
        <div role="status" aria-label="Loading subscribers">
          <Skeleton className="h-40" />
        </div>
      ) : rows.isError ? (
        <QueryError title="Could not load subscribers" error={rows.error} onRetry={() => void rows.refetch()} />
      ) : rows.data.length === 0 ? (
        <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
          {committed
            ? `No confirmed subscriber's address contains “${committed}”.`
            : 'No confirmed subscribers yet. They appear here once they click the link in their confirmation email.'}
        </p>
      ) : (
        <>
          <dl
            className="flex flex-wrap gap-x-4 text-sm text-muted-foreground"
            aria-live="polite"
            data-testid="subscriber-totals"
          >
            <div className="flex gap-1" title={metrics.confirmedSubscribers.definition}>
              <dt>{metrics.confirmedSubscribers.label}</dt>
              <dd className="font-medium text-foreground tabular-nums">
                {totals.data === undefined ? '…' : totals.data.confirmed.toLocaleString('en-US')}
              </dd>
            </div>
            {totals.data && totals.data.refunded > 0 ? (
              <div className="flex gap-1" title={metrics.refundedReaders.definition}>
                <dt>{metrics.refundedReaders.label}</dt>
                <dd className="font-medium text-foreground tabular-nums">
                  {totals.data.refunded.toLocaleString('en-US')}
                </dd>
              </div>
            ) : null}
            {committed && count.data !== undefined ? (
              <div className="flex gap-1">
                <dt>Matching “{committed}”</dt>
                <dd className="font-medium text-foreground tabular-nums">{count.data.toLocaleString('en-US')}</dd>
              </div>
            ) : null}
          </dl>
          <div data-testid="subscriber-table">
            <DataTable
              columns={columns}
              data={data}
              caption="Confirmed subscribers, newest first"
              getRowId={(row) => row.id}
            />
          </div>
          <Pager
            page={page}
            pageSize={SUBSCRIBERS_PAGE_SIZE}
            total={count.data ?? 0}
            onPageChange={setPage}
            label="Subscriber pages"
          />
        </>
      )}
    </div>
  )
}
