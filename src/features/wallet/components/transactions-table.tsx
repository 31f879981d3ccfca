/**
 * The wallet statement, 20 rows a page, newest first, as the database builds it (`wallet_statement`): a charge is
 * one row whose status reads on hold, charged, or refunded with the amount given back.
 */
import { useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Skeleton } from '@/components/ui/skeleton'
import { DataTable, dataTableColumns } from '@/components/data-table'
import { Pager } from '@/components/pager'
import { QueryError } from '@/components/query-error'
import { formatCredits, formatDateTime } from '@/lib/format'
import { statementKindLabel, statementStatus } from '@/lib/vocabulary'
import { TRANSACTIONS_PAGE_SIZE, useWalletTransactionsQuery, type StatementRow } from '../api/wallet-transactions-query'

const signed = (amount: number) => `${amount > 0 ? '+' : ''}${formatCredits(amount)}`

function Amount({ row }: { row: StatementRow }) {
  if (row.status === 'refunded') {
    return (
      <span className="text-muted-foreground">
        <s aria-hidden="true">{signed(row.amount)}</s>
        <span className="block text-green-700">{formatCredits(row.refunded)} refunded</span>
      </span>
    )
  }
  return <span className={row.amount < 0 ? 'text-red-700' : 'text-green-700'}>{signed(row.amount)}</span>
}

const col = dataTableColumns<StatementRow>()
const columns = [
  col.accessor('occurredAt', {
    header: 'Date',
    enableSorting: false,
    cell: (c) => <span className="whitespace-nowrap">{formatDateTime(c.getValue())}</span>,
  }),
  col.accessor('kind', {
    header: 'Type',
    enableSorting: false,
    cell: (c) => statementKindLabel(c.getValue()),
    meta: { primary: true },
  }),
  col.accessor('description', { header: 'Description', enableSorting: false, cell: (c) => c.getValue() ?? '—' }),
  col.accessor('status', {
    header: 'Status',
    enableSorting: false,
    cell: ({ row }) => {
      const word = statementStatus(row.original.status)
      return (
        <>
          <Badge variant={word.tone}>{word.label}</Badge>
          {row.original.settledAt && row.original.kind === 'charge' && (
            <span className="block text-xs whitespace-nowrap text-muted-foreground">
              {formatDateTime(row.original.settledAt)}
            </span>
          )}
        </>
      )
    },
  }),
  col.accessor('amount', {
    header: 'Amount',
    enableSorting: false,
    meta: { align: 'right' },
    cell: ({ row }) => <Amount row={row.original} />,
  }),
]

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
    return (
      <QueryError title="Could not load your transactions" error={query.error} onRetry={() => void query.refetch()} />
    )
  }
  const { rows, total } = query.data
  if (total === 0 && page === 0)
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
