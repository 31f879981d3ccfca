/** Deposits (money in), 20 a page: who, how much, where each stands, and the Stripe reference to look it up. */
import { useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Skeleton } from '@/components/ui/skeleton'
import { ADMIN_DEPOSITS_PAGE_SIZE, useDepositsQuery } from '../api/deposits-query'
import { formatCredits, formatDateTime } from '@/lib/format'
import { Pager } from '@/components/pager'
import { QueryError } from '@/components/query-error'
import { TableScroll } from '@/components/table-scroll'

const statusVariant = (status: string) =>
  status === 'completed' ? 'green' : status === 'pending' ? 'yellow' : status === 'failed' ? 'red' : 'grey'

export function DepositsPanel() {
  const [page, setPage] = useState(0)
  const query = useDepositsQuery(page)
  if (query.isPending) {
    return (
      <div role="status" aria-label="Loading deposits">
        <Skeleton className="h-40" />
      </div>
    )
  }
  if (query.isError) {
    return <QueryError title="Could not load deposits" error={query.error} onRetry={() => void query.refetch()} />
  }
  if (query.data.total === 0) return <p className="text-muted-foreground">No deposits yet.</p>
  return (
    <div className="space-y-3">
      <TableScroll label="Deposits table">
        <table className="w-full text-left text-sm" data-testid="admin-deposits">
          <caption className="sr-only">Deposits, newest first, with their Stripe reference</caption>
          <thead className="border-b text-muted-foreground">
            <tr>
              <th scope="col" className="py-2 pr-3 font-medium">
                Date
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                Advertiser
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                Status
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                Stripe reference
              </th>
              <th scope="col" className="py-2 text-right font-medium">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {query.data.rows.map((d) => (
              <tr key={d.id} className="border-b last:border-0">
                <td className="py-2 pr-3 whitespace-nowrap">{formatDateTime(d.created_at)}</td>
                <td className="py-2 pr-3">{d.user?.full_name || 'No name set'}</td>
                <td className="py-2 pr-3">
                  <Badge variant={statusVariant(d.status)}>{d.status}</Badge>
                  {d.failure_reason && <span className="block text-xs text-muted-foreground">{d.failure_reason}</span>}
                </td>
                <td className="py-2 pr-3 font-mono text-xs break-all">
                  {d.stripe_session_id}
                  {d.stripe_payment_intent && (
                    <span className="block text-muted-foreground">{d.stripe_payment_intent}</span>
                  )}
                </td>
                <td className="py-2 text-right whitespace-nowrap tabular-nums">{formatCredits(d.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <Pager
        label="Deposit pages"
        page={page}
        pageSize={ADMIN_DEPOSITS_PAGE_SIZE}
        total={query.data.total}
        onPageChange={setPage}
      />
    </div>
  )
}
