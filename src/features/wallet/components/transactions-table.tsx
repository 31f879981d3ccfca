/** The wallet's ledger, 20 rows a page, newest first. */
import { useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Skeleton } from '@/components/ui/skeleton'
import { TRANSACTIONS_PAGE_SIZE, useWalletTransactionsQuery } from '../api/wallet-transactions-query'
import { formatCredits, formatDateTime, toCredits } from '@/lib/format'
import { transactionStatusVariant, transactionTypeLabel } from './transaction-labels'
import { Pager } from '@/components/pager'
import { QueryError } from '@/components/query-error'
import { TableScroll } from '@/components/table-scroll'

export function TransactionsTable({ userId }: { userId: string }) {
  const [page, setPage] = useState(0)
  const query = useWalletTransactionsQuery({ userId, page })

  if (query.isPending) {
    return (
      <div role="status" aria-label="Loading transactions" className="space-y-2">
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} className="h-10" />
        ))}
      </div>
    )
  }
  if (query.isError) {
    return <QueryError title="Could not load your transactions" error={query.error} onRetry={() => void query.refetch()} />
  }
  const { rows, total } = query.data
  if (total === 0) return <p className="text-muted-foreground">No transactions yet.</p>

  return (
    <div>
      <TableScroll label="Wallet transactions">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Wallet transactions, newest first</caption>
          <thead className="border-b text-muted-foreground">
            <tr>
              <th scope="col" className="py-2 pr-3 font-medium">Date</th>
              <th scope="col" className="py-2 pr-3 font-medium">Type</th>
              <th scope="col" className="py-2 pr-3 font-medium">Description</th>
              <th scope="col" className="py-2 pr-3 font-medium">Status</th>
              <th scope="col" className="py-2 text-right font-medium">Amount</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const amount = toCredits(row.amount)
              return (
                <tr key={row.id} className="border-b last:border-0">
                  <td className="py-2 pr-3 whitespace-nowrap">{formatDateTime(row.created_at)}</td>
                  <td className="py-2 pr-3">{transactionTypeLabel[row.type] ?? row.type}</td>
                  <td className="py-2 pr-3">{row.description ?? '—'}</td>
                  <td className="py-2 pr-3">
                    <Badge variant={transactionStatusVariant(row.status)}>{row.status}</Badge>
                  </td>
                  <td className={`py-2 text-right whitespace-nowrap tabular-nums ${amount < 0 ? 'text-red-700' : 'text-green-700'}`}>
                    {amount > 0 ? '+' : ''}
                    {formatCredits(amount)}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </TableScroll>
      <Pager label="Transaction pages" page={page} pageSize={TRANSACTIONS_PAGE_SIZE} total={total} onPageChange={setPage} />
    </div>
  )
}
