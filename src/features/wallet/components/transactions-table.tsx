/**
 * The wallet statement, 20 rows a page, newest first, as the database builds it (`wallet_statement`): a charge is
 * one row whose status reads on hold, charged, or refunded with the amount given back. Filtered by type, status and
 * UTC days with the admin Money's filter bar (no search box), the filters and page in the URL (`wal_…`), and
 * exported as CSV (up to 10,000 rows of the same filters).
 */
import { Badge } from '@/components/ui/badge'
import { Skeleton } from '@/components/ui/skeleton'
import { DataTable, dataTableColumns } from '@/components/data-table'
import { Pager } from '@/components/pager'
import { QueryError } from '@/components/query-error'
import { MoneyFilterBar, type FilterSelect } from '@/components/money-filter-bar'
import { MoneyExportButton, PastTheEnd } from '@/components/money-export'
import { formatCredits, formatDateTime } from '@/lib/format'
import { isFiltered, useMoneyFilters, type MoneyFilters } from '@/lib/money-filters'
import { statementKindLabel, statementKindOptions, statementStatus, statementStatusOptions } from '@/lib/vocabulary'
import { TRANSACTIONS_PAGE_SIZE, useWalletTransactionsQuery, type StatementRow } from '../api/wallet-transactions-query'
import { useMoneyExportMutation } from '../api/money-export-mutation'

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
  col.accessor('description', {
    header: 'Description',
    enableSorting: false,
    // The subscriber and source of a charge, the Stripe payment of a deposit: what the CSV carries too.
    cell: ({ row }) => (
      <>
        {row.original.description ?? '—'}
        {row.original.subscriberEmail || row.original.sourceName ? (
          <span className="block text-xs text-muted-foreground">
            {[row.original.subscriberEmail, row.original.sourceName].filter(Boolean).join(' · ')}
          </span>
        ) : row.original.kind === 'deposit' && row.original.reference ? (
          <span className="block text-xs break-all text-muted-foreground">Stripe {row.original.reference}</span>
        ) : null}
      </>
    ),
  }),
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

const selects: FilterSelect[] = [
  { field: 'type', label: 'Type', anyLabel: 'All types', options: statementKindOptions },
  { field: 'status', label: 'Status', anyLabel: 'All statuses', options: statementStatusOptions },
]

export function TransactionsTable({ userId }: { userId: string }) {
  const [linked, setFilters] = useMoneyFilters('wal')
  // The wallet has no search box: a hand-made `wal_q` narrows nothing.
  const filters: MoneyFilters = { ...linked, search: '' }
  const query = useWalletTransactionsQuery({ userId, filters })
  const exporter = useMoneyExportMutation('wallet')
  const update = (next: MoneyFilters) => {
    exporter.reset()
    setFilters(next)
  }
  // A wallet with nothing in it yet needs no filters; once filtered, they stay to be changed back.
  const empty = query.isSuccess && query.data.total === 0 && filters.page === 0 && !isFiltered(filters)

  return (
    <div className="space-y-3">
      {!empty && <MoneyFilterBar filters={filters} onChange={update} label="Filter transactions" selects={selects} />}
      {query.isPending ? (
        <div role="status" aria-label="Loading transactions" className="space-y-2">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} className="h-10" />
          ))}
        </div>
      ) : query.isError ? (
        <QueryError title="Could not load your transactions" error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.total === 0 && filters.page > 0 ? (
        <PastTheEnd onFirstPage={() => setFilters({ ...filters, page: 0 })} />
      ) : query.data.total === 0 ? (
        <p className="text-muted-foreground">
          {isFiltered(filters)
            ? 'No transactions match these filters.'
            : 'No transactions yet. Deposits, charges and refunds appear here as they happen.'}
        </p>
      ) : (
        <>
          <MoneyExportButton exporter={exporter} filters={filters} label="Export transactions as CSV" />
          <DataTable
            columns={columns}
            data={query.data.rows}
            caption="Wallet transactions"
            getRowId={(row) => row.id}
            rowTestId="transaction-row"
            footer={
              <Pager
                label="Transaction pages"
                page={filters.page}
                pageSize={TRANSACTIONS_PAGE_SIZE}
                total={query.data.total}
                onPageChange={(page) => setFilters({ ...filters, page })}
              />
            }
          />
        </>
      )}
    </div>
  )
}
