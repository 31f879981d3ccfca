/** Every ledger row of the marketplace (or only charges on hold), 20 a page. */
import { useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { ADMIN_TRANSACTIONS_PAGE_SIZE, useAllTransactionsQuery, type TransactionFilter } from '../api/all-transactions-query'
import { formatCredits, formatDateTime, toCredits } from '@/lib/format'
import { Pager } from '@/components/pager'
import { QueryError } from '@/components/query-error'
import { TableScroll } from '@/components/table-scroll'

const statusVariant = (status: string) =>
  status === 'completed' ? 'green' : status === 'pending' ? 'yellow' : status === 'failed' ? 'red' : 'grey'

export function TransactionsPanel() {
  const [filter, setFilter] = useState<TransactionFilter>('all')
  const [page, setPage] = useState(0)
  const query = useAllTransactionsQuery({ filter, page })
  const choose = (next: TransactionFilter) => {
    setFilter(next)
    setPage(0)
  }
  return (
    <div className="space-y-3">
      <div role="group" aria-label="Which transactions" className="flex gap-2">
        <Button size="sm" variant={filter === 'all' ? 'default' : 'outline'} aria-pressed={filter === 'all'} onClick={() => choose('all')}>
          All transactions
        </Button>
        <Button size="sm" variant={filter === 'holds' ? 'default' : 'outline'} aria-pressed={filter === 'holds'} onClick={() => choose('holds')}>
          On hold
        </Button>
      </div>
      {query.isPending ? (
        <div role="status" aria-label="Loading transactions">
          <Skeleton className="h-40" />
        </div>
      ) : query.isError ? (
        <QueryError title="Could not load transactions" error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.total === 0 ? (
        <p className="text-muted-foreground">{filter === 'holds' ? 'Nothing is on hold.' : 'No transactions yet.'}</p>
      ) : (
        <>
          <TableScroll label="Transactions table">
            <table className="w-full text-left text-sm" data-testid="admin-transactions">
              <caption className="sr-only">Marketplace transactions, newest first</caption>
              <thead className="border-b text-muted-foreground">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-medium">Date</th>
                  <th scope="col" className="py-2 pr-3 font-medium">User</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Type</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Description</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Status</th>
                  <th scope="col" className="py-2 text-right font-medium">Amount</th>
                </tr>
              </thead>
              <tbody>
                {query.data.rows.map((t) => (
                  <tr key={t.id} className="border-b last:border-0">
                    <td className="py-2 pr-3 whitespace-nowrap">{formatDateTime(t.created_at)}</td>
                    <td className="py-2 pr-3">{t.user?.full_name || 'No name set'}</td>
                    <td className="py-2 pr-3">{t.type}</td>
                    <td className="py-2 pr-3">
                      {t.description ?? '—'}
                      {t.status === 'pending' && t.available_at && (
                        <span className="block text-xs text-muted-foreground">Settles {formatDateTime(t.available_at)}</span>
                      )}
                    </td>
                    <td className="py-2 pr-3">
                      <Badge variant={statusVariant(t.status)}>{t.status}</Badge>
                    </td>
                    <td className="py-2 text-right whitespace-nowrap tabular-nums">{formatCredits(toCredits(t.amount))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Pager label="Transaction pages" page={page} pageSize={ADMIN_TRANSACTIONS_PAGE_SIZE} total={query.data.total} onPageChange={setPage} />
        </>
      )}
    </div>
  )
}
