/** The wallet's ledger, 20 rows a page, newest first by default; sorted by date or amount in the database. */
import { useState } from 'react'
import type { SortingState } from '@tanstack/react-table'
import { Badge } from '@/components/ui/badge'
import { Skeleton } from '@/components/ui/skeleton'
import { DataTable, dataTableColumns } from '@/components/data-table'
import { Pager } from '@/components/pager'
import { QueryError } from '@/components/query-error'
import { formatCredits, formatDateTime, toCredits } from '@/lib/format'
import { transactionStatus, transactionTypeLabel } from '@/lib/vocabulary'
import {
  TRANSACTIONS_PAGE_SIZE,
  useWalletTransactionsQuery,
  type WalletTransaction,
} from '../api/wallet-transactions-query'

const col = dataTableColumns<WalletTransaction>()
const columns = [
  col.accessor('created_at', {
    header: 'Date',
    cell: (c) => <span className="whitespace-nowrap">{formatDateTime(c.getValue())}</span>,
  }),
  col.accessor('type', {
    header: 'Type',
    enableSorting: false,
    cell: (c) => transactionTypeLabel(c.getValue()),
    meta: { primary: true },
  }),
  col.accessor('description', { header: 'Description', enableSorting: false, cell: (c) => c.getValue() ?? '—' }),
  col.accessor('status', {
    header: 'Status',
    enableSorting: false,
    cell: (c) => {
      const word = transactionStatus(c.getValue())
      return <Badge variant={word.tone}>{word.label}</Badge>
    },
  }),
  col.accessor('amount', {
    header: 'Amount',
    meta: { align: 'right' },
    cell: (c) => {
      const amount = toCredits(c.getValue())
      return (
        <span className={amount < 0 ? 'text-red-700' : 'text-green-700'}>
          {amount > 0 ? '+' : ''}
          {formatCredits(amount)}
        </span>
      )
    },
  }),
]

export function TransactionsTable({ userId }: { userId: string }) {
  const [page, setPage] = useState(0)
  const [sorting, setSorting] = useState<SortingState>([{ id: 'created_at', desc: true }])
  const query = useWalletTransactionsQuery({ userId, page, sorting })

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
    return (
      <QueryError title="Could not load your transactions" error={query.error} onRetry={() => void query.refetch()} />
    )
  }
  const { rows, total } = query.data
  if (total === 0)
    return (
      <p className="text-muted-foreground">
        No transactions yet. Deposits, charges and refunds appear here as they happen.
      </p>
    )

  return (
    <DataTable
      columns={columns}
      data={rows}
      caption="Wallet transactions"
      getRowId={(row) => row.id}
      rowTestId="transaction-row"
      manualSorting
      sorting={sorting}
      onSortingChange={(next) => {
        setSorting(next)
        setPage(0)
      }}
      footer={
        <Pager
          label="Transaction pages"
          page={page}
          pageSize={TRANSACTIONS_PAGE_SIZE}
          total={total}
          onPageChange={setPage}
        />
      }
    />
  )
}
