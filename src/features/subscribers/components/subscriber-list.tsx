/**
 * A campaign's confirmed subscribers: search by address, 25 a page (server-side), CSV export. Pending
 * addresses never reach this screen: the database lists confirmed subscribers only.
 */
import { useCallback, useState } from 'react'
import { DownloadIcon } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Skeleton } from '@/components/ui/skeleton'
import { Pager } from '@/components/pager'
import { QueryError } from '@/components/query-error'
import { TableScroll } from '@/components/table-scroll'
import { formatCredits, formatDateTime } from '@/lib/format'
import { useDebouncedSearch } from '@/lib/use-debounced-search'
import { SUBSCRIBERS_PAGE_SIZE, useSubscribersQuery, type SubscriberRow } from '../api/subscribers-query'
import { useSubscriberCountQuery } from '../api/subscriber-count-query'
import { useSubscribersExportMutation } from '../api/subscribers-export-mutation'

/** Whether the advertiser paid for this subscriber, and if not, why — in words. */
export function chargeLabel(row: Pick<SubscriberRow, 'counted' | 'price' | 'reason_label' | 'source_name'>): string {
  if (row.counted) return `Paid ${formatCredits(row.price)}`
  if (row.reason_label) return `Not charged: ${row.reason_label}`
  return row.source_name ? 'Not charged' : 'Free (no source)'
}

const STATUS_LABELS: Record<string, string> = { confirmed: 'Confirmed', rejected: 'Rejected (refunded)', unsubscribed: 'Unsubscribed' }

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
  const exporter = useSubscribersExportMutation()

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid w-full max-w-sm gap-1.5">
          <label htmlFor="subscriber-search" className="text-sm font-medium">
            Search by email
          </label>
          <Input id="subscriber-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="name@example.com" />
        </div>
        <Button variant="outline" onClick={() => exporter.mutate(campaignId)} disabled={exporter.isPending} data-testid="export-subscribers">
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
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {count.data === undefined ? '…' : `${count.data.toLocaleString('en-US')} confirmed subscriber${count.data === 1 ? '' : 's'}`}
          </p>
          <TableScroll label="Confirmed subscribers">
            <table className="w-full text-left text-sm" data-testid="subscriber-table">
              <caption className="sr-only">Confirmed subscribers, newest first</caption>
              <thead className="border-b text-muted-foreground">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-medium">Email</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Confirmed</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Source</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Status</th>
                </tr>
              </thead>
              <tbody>
                {rows.data.map((row) => (
                  <tr key={row.id} className="border-b last:border-0">
                    <td className="py-2 pr-3 break-all">{row.email}</td>
                    <td className="py-2 pr-3 whitespace-nowrap">{formatDateTime(row.confirmed_at)}</td>
                    <td className="py-2 pr-3">{row.source_name ?? 'Direct (no source)'}</td>
                    <td className="py-2 pr-3">
                      {STATUS_LABELS[row.status] ?? row.status}
                      <span className="block text-xs text-muted-foreground">{chargeLabel(row)}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Pager page={page} pageSize={SUBSCRIBERS_PAGE_SIZE} total={count.data ?? 0} onPageChange={setPage} label="Subscriber pages" />
        </>
      )}
    </div>
  )
}
