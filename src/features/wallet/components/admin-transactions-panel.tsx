/**
 * Every ledger row of the marketplace, 20 a page, newest first (admin_ledger): searched by email, name, reference
 * or description, filtered by type, status and dates, all in the URL; "On hold" is the quick view of charges in
 * screening; "Export CSV" takes up to 10,000 rows of the same search.
 */
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { DataTable, dataTableColumns } from '@/components/data-table'
import { Pager } from '@/components/pager'
import { QueryError } from '@/components/query-error'
import { formatCredits, formatDateTime } from '@/lib/format'
import { transactionStatusOptions, transactionTypeOptions } from '@/lib/vocabulary'
import { EmailAddress } from '@/components/email-address'
import { ledgerWords } from '../money-csv'
import { ADMIN_LEDGER_PAGE_SIZE, useAdminLedgerQuery, type AdminLedgerRow } from '../api/admin-ledger-query'
import { useMoneyExportMutation } from '../api/money-export-mutation'
import { isFiltered, useMoneyFilters, type MoneyFilters } from '@/lib/money-filters'
import { MoneyFilterBar, type FilterSelect } from '@/components/money-filter-bar'
import { MoneyExportButton, PastTheEnd } from '@/components/money-export'

const col = dataTableColumns<AdminLedgerRow>()
const columns = [
  col.accessor('created_at', {
    header: 'Date',
    enableSorting: false,
    cell: (c) => <span className="whitespace-nowrap">{formatDateTime(c.getValue())}</span>,
  }),
  col.accessor((t) => t.user_name || 'No name set', {
    id: 'user',
    header: 'User',
    enableSorting: false,
    meta: { primary: true },
    cell: ({ row }) => (
      <>
        {row.original.user_name || 'No name set'}
        <EmailAddress email={row.original.user_email} className="block text-xs text-muted-foreground" />
      </>
    ),
  }),
  // A refunded charge's 0.00 release reads as the refund, as on the advertiser's statement (ledgerWords).
  col.accessor('type', { header: 'Type', enableSorting: false, cell: ({ row }) => ledgerWords(row.original).type }),
  col.accessor('description', {
    header: 'Description',
    enableSorting: false,
    cell: ({ row }) => (
      <>
        {row.original.description ?? '—'}
        {row.original.subscriber_email || row.original.source_name ? (
          <span className="block text-xs text-muted-foreground">
            {[row.original.subscriber_email, row.original.source_name, row.original.newsletter_name]
              .filter(Boolean)
              .join(' · ')}
          </span>
        ) : null}
        {row.original.stripe_reference ? (
          <span className="block text-xs break-all text-muted-foreground">Stripe {row.original.stripe_reference}</span>
        ) : null}
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
    cell: ({ row }) => {
      const word = ledgerWords(row.original).status
      return <Badge variant={word.tone}>{word.label}</Badge>
    },
  }),
  col.accessor('amount', {
    header: 'Amount',
    enableSorting: false,
    meta: { align: 'right' },
    cell: ({ row }) => (
      <>
        {formatCredits(row.original.amount)}
        {Number(row.original.refunded) > 0 ? (
          <span className="block text-xs text-muted-foreground">{formatCredits(row.original.refunded)} refunded</span>
        ) : null}
      </>
    ),
  }),
]

const selects: FilterSelect[] = [
  { field: 'type', label: 'Type', anyLabel: 'All types', options: transactionTypeOptions },
  { field: 'status', label: 'Status', anyLabel: 'All statuses', options: transactionStatusOptions },
]

export function AllTransactionsPanel() {
  const [filters, setFilters] = useMoneyFilters('tx')
  const query = useAdminLedgerQuery(filters)
  const exporter = useMoneyExportMutation('ledger')
  const update = (next: MoneyFilters) => {
    exporter.reset()
    setFilters(next)
  }
  const holds = filters.type === 'hold' && filters.status === 'pending'
  const preset = (type: string, status: string) => update({ ...filters, type, status, page: 0 })
  return (
    <div className="space-y-3">
      <div role="group" aria-label="Which transactions" className="flex flex-wrap gap-2">
        <Button
          size="sm"
          variant={!filters.type && !filters.status ? 'default' : 'outline'}
          aria-pressed={!filters.type && !filters.status}
          onClick={() => preset('', '')}
        >
          All transactions
        </Button>
        <Button
          size="sm"
          variant={holds ? 'default' : 'outline'}
          aria-pressed={holds}
          onClick={() => preset('hold', 'pending')}
        >
          On hold
        </Button>
      </div>
      <MoneyFilterBar
        filters={filters}
        onChange={update}
        label="Search transactions"
        searchLabel="Search by email, name, reference or description"
        selects={selects}
      />
      {query.isPending ? (
        <div role="status" aria-label="Loading transactions">
          <Skeleton className="h-40" />
        </div>
      ) : query.isError ? (
        <QueryError title="Could not load transactions" error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.total === 0 && filters.page > 0 ? (
        <PastTheEnd onFirstPage={() => setFilters({ ...filters, page: 0 })} />
      ) : query.data.total === 0 ? (
        <p className="text-muted-foreground">
          {holds
            ? 'Nothing is on hold.'
            : isFiltered(filters)
              ? 'No transactions match these filters.'
              : 'No transactions yet.'}
        </p>
      ) : (
        <>
          <MoneyExportButton exporter={exporter} filters={filters} label="Export transactions as CSV" />
          <div data-testid="admin-transactions">
            <DataTable
              columns={columns}
              data={query.data.rows}
              caption="Marketplace transactions"
              getRowId={(row) => row.id}
              footer={
                <Pager
                  label="Transaction pages"
                  page={filters.page}
                  pageSize={ADMIN_LEDGER_PAGE_SIZE}
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
