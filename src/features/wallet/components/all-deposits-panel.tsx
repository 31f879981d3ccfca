/** Deposits (money in), 20 a page, newest first: who, how much, where each stands, and the Stripe reference to look it up. */
import { useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Skeleton } from '@/components/ui/skeleton'
import { DataTable, dataTableColumns } from '@/components/data-table'
import { Pager } from '@/components/pager'
import { QueryError } from '@/components/query-error'
import { formatCredits, formatDateTime } from '@/lib/format'
import { depositStatus } from '@/lib/vocabulary'
import { ADMIN_DEPOSITS_PAGE_SIZE, useAllDepositsQuery, type AdminDeposit } from '../api/all-deposits-query'

const col = dataTableColumns<AdminDeposit>()
const columns = [
  col.accessor('created_at', {
    header: 'Date',
    enableSorting: false,
    cell: (c) => <span className="whitespace-nowrap">{formatDateTime(c.getValue())}</span>,
  }),
  col.accessor((d) => d.user?.full_name || 'No name set', {
    id: 'advertiser',
    header: 'Advertiser',
    enableSorting: false,
    meta: { primary: true },
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

export function AllDepositsPanel() {
  const [page, setPage] = useState(0)
  const query = useAllDepositsQuery(page)
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
    <div data-testid="admin-deposits">
      <DataTable
        columns={columns}
        data={query.data.rows}
        caption="Deposits, newest first, with their Stripe reference"
        getRowId={(d) => d.id}
        footer={
          <Pager
            label="Deposit pages"
            page={page}
            pageSize={ADMIN_DEPOSITS_PAGE_SIZE}
            total={query.data.total}
            onPageChange={setPage}
          />
        }
      />
    </div>
  )
}
