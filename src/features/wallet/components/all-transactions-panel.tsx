/** Every ledger row of the marketplace (or only charges on hold), 20 a page, sorted by date or amount in the database. */
import { useState } from 'react'
import type { SortingState } from '@tanstack/react-table'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { DataTable, dataTableColumns } from '@/components/data-table'
import { Pager } from '@/components/pager'
import { QueryError } from '@/components/query-error'
import { formatCredits, formatDateTime, toCredits } from '@/lib/format'
import { transactionStatus, transactionTypeLabel } from '@/lib/vocabulary'
import {
  ADMIN_TRANSACTIONS_PAGE_SIZE,
  useAllTransactionsQuery,
  type AdminTransaction,
  type TransactionFilter,
} from '../api/all-transactions-query'

const col = dataTableColumns<AdminTransaction>()
const columns = [
  col.accessor('created_at', {
    header: 'Date',
    cell: (c) => <span className="whitespace-nowrap">{formatDateTime(c.getValue())}</span>,
  }),
  col.accessor((t) => t.user?.full_name || 'No name set', {
    id: 'user',
    header: 'User',
    enableSorting: false,
    meta: { primary: true },
  }),
  col.accessor('type', { header: 'Type', enableSorting: false, cell: (c) => transactionTypeLabel(c.getValue()) }),
  col.accessor('description', {
    header: 'Description',
    enableSorting: false,
    cell: ({ row }) => (
      <>
        {row.original.description ?? '—'}
        {row.original.status === 'pending' && row.original.available_at && (
          <span className="block text-xs text-muted-foreground">
            Settles {formatDateTime(row.original.available_at)}
          </span>
        )}
      </>
    ),
  }),
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
    cell: (c) => formatCredits(toCredits(c.getValue())),
  }),
]

export function AllTransactionsPanel() {
  const [filter, setFilter] = useState<TransactionFilter>('all')
  const [page, setPage] = useState(0)
  const [sorting, setSorting] = useState<SortingState>([{ id: 'created_at', desc: true }])
  const query = useAllTransactionsQuery({ filter, page, sorting })
  const choose = (next: TransactionFilter) => {
    setFilter(next)
    setPage(0)
  }
  return (
    <div className="space-y-3">
      <div role="group" aria-label="Which transactions" className="flex flex-wrap gap-2">
        <Button
          size="sm"
          variant={filter === 'all' ? 'default' : 'outline'}
          aria-pressed={filter === 'all'}
          onClick={() => choose('all')}
        >
          All transactions
        </Button>
        <Button
          size="sm"
          variant={filter === 'holds' ? 'default' : 'outline'}
          aria-pressed={filter === 'holds'}
          onClick={() => choose('holds')}
        >
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
        <div data-testid="admin-transactions">
          <DataTable
            columns={columns}
            data={query.data.rows}
            caption="Marketplace transactions"
            getRowId={(row) => row.id}
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
                pageSize={ADMIN_TRANSACTIONS_PAGE_SIZE}
                total={query.data.total}
                onPageChange={setPage}
              />
            }
          />
        </div>
      )}
    </div>
  )
}
