/**
 * Deposits (money in), 20 a page, newest first (admin_deposits): who, how much, where each stands, and the Stripe
 * reference to look it up; searched by email, name or Stripe reference, filtered by status and dates, all in the
 * URL; "Export CSV" takes up to 10,000 rows of the same search.
 */
import { Badge } from '@/components/ui/badge'
import { Skeleton } from '@/components/ui/skeleton'
import { DataTable, dataTableColumns } from '@/components/data-table'
import { Pager } from '@/components/pager'
import { QueryError } from '@/components/query-error'
import { formatCredits, formatDateTime } from '@/lib/format'
import { depositStatus, depositStatusOptions } from '@/lib/vocabulary'
import { ADMIN_DEPOSITS_PAGE_SIZE, useAdminDepositsQuery, type AdminDepositRow } from '../api/admin-deposits-query'
import { useMoneyExportMutation } from '../api/money-export-mutation'
import { isFiltered, useMoneyFilters, type MoneyFilters } from '@/lib/money-filters'
import { MoneyFilterBar, type FilterSelect } from '@/components/money-filter-bar'
import { MoneyExportButton, PastTheEnd } from '@/components/money-export'

const col = dataTableColumns<AdminDepositRow>()
const columns = [
  col.accessor('created_at', {
    header: 'Date',
    enableSorting: false,
    cell: (c) => <span className="whitespace-nowrap">{formatDateTime(c.getValue())}</span>,
  }),
  col.accessor((d) => d.user_name || 'No name set', {
    id: 'advertiser',
    header: 'Advertiser',
    enableSorting: false,
    meta: { primary: true },
    cell: ({ row }) => (
      <>
        {row.original.user_name || 'No name set'}
        <span className="block text-xs break-all text-muted-foreground">{row.original.user_email}</span>
      </>
    ),
  }),
  col.accessor('status', {
    header: 'Status',
    enableSorting: false,
    cell: ({ row }) => {
      // A checkout left unpaid reads Canceled or Expired (the scheduled expire_stale_deposits closes any past its expiry).
      const word = depositStatus(row.original.status)
      return (
        <>
          <Badge variant={word.tone}>{word.label}</Badge>
          {row.original.failure_reason && (
            <span className="block text-xs text-muted-foreground">{row.original.failure_reason}</span>
          )}
        </>
      )
    },
  }),
  col.accessor('stripe_session_id', {
    header: 'Stripe reference',
    enableSorting: false,
    cell: ({ row }) => (
      <span className="font-mono text-xs break-all">
        {row.original.stripe_session_id}
        {row.original.stripe_payment_intent && (
          <span className="block text-muted-foreground">{row.original.stripe_payment_intent}</span>
        )}
      </span>
    ),
  }),
  col.accessor('amount', {
    header: 'Amount',
    enableSorting: false,
    meta: { align: 'right' },
    cell: (c) => formatCredits(c.getValue()),
  }),
]

const selects: FilterSelect[] = [
  { field: 'status', label: 'Status', anyLabel: 'All statuses', options: depositStatusOptions },
]

export function AllDepositsPanel() {
  const [filters, setFilters] = useMoneyFilters('dep')
  const query = useAdminDepositsQuery(filters)
  const exporter = useMoneyExportMutation('deposits')
  const update = (next: MoneyFilters) => {
    exporter.reset()
    setFilters(next)
  }
  return (
    <div className="space-y-3">
      <MoneyFilterBar
        filters={filters}
        onChange={update}
        label="Search deposits"
        searchLabel="Search by email, name or Stripe reference"
        selects={selects}
      />
      {query.isPending ? (
        <div role="status" aria-label="Loading deposits">
          <Skeleton className="h-40" />
        </div>
      ) : query.isError ? (
        <QueryError title="Could not load deposits" error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.total === 0 && filters.page > 0 ? (
        <PastTheEnd onFirstPage={() => setFilters({ ...filters, page: 0 })} />
      ) : query.data.total === 0 ? (
        <p className="text-muted-foreground">
          {isFiltered(filters) ? 'No deposits match these filters.' : 'No deposits yet.'}
        </p>
      ) : (
        <>
          <MoneyExportButton exporter={exporter} filters={filters} label="Export deposits as CSV" />
          <div data-testid="admin-deposits">
            <DataTable
              columns={columns}
              data={query.data.rows}
              caption="Deposits, newest first, with their Stripe reference"
              getRowId={(d) => d.id}
              footer={
                <Pager
                  label="Deposit pages"
                  page={filters.page}
                  pageSize={ADMIN_DEPOSITS_PAGE_SIZE}
                  total={query.data.total}
                  onPageChange={(page) => setFilters({ ...filters, page })}
                />
              }
            />
          </div>
        </>
      )}
    </div>
  )
}
