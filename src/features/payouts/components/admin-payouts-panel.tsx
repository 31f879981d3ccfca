/**
 * Every payout request for admins: payouts in flight (a Stripe transfer being sent), failed ones with Stripe's reason
 * (or why they were not sent) and "Retry", reversed ones with what came back, and "Mark paid by hand" for publishers
 * paid outside Stripe — each behind a confirmation that states the amount. Open requests first, 20 a page, searched by email, name, transfer reference or reason and filtered by
 * status and dates in the database, all in the URL (`pay_…`); "Export CSV" takes up to 10,000 rows of the same search.
 */
import { useState } from 'react'
import { toast } from '@/lib/toast'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { MoneyExportButton, PastTheEnd } from '@/components/money-export'
import { MoneyFilterBar, type FilterSelect } from '@/components/money-filter-bar'
import { Pager } from '@/components/pager'
import { QueryError } from '@/components/query-error'
import { formatCredits, formatDateTime } from '@/lib/format'
import { isFiltered, useMoneyFilters, type MoneyFilters } from '@/lib/money-filters'
import { payoutStatus, payoutStatusOptions } from '@/lib/vocabulary'
import {
  ADMIN_PAYOUTS_PAGE_SIZE,
  useAllPayoutRequestsQuery,
  type AnyPayoutRequest,
} from '../api/admin-payout-requests-query'
import { usePayoutsExportMutation } from '../api/payouts-export-mutation'
import { MarkPaidDialog } from './mark-paid-dialog'
import { RetryPayoutDialog } from './retry-payout-dialog'

type Target = { id: string; amount: number; who: string }

function dates(p: AnyPayoutRequest) {
  const sent = p.status === 'paid' || p.status === 'reversed'
  return [
    `Requested ${formatDateTime(p.created_at)}`,
    sent && p.paid_at && `paid ${formatDateTime(p.paid_at)}`,
    p.status === 'failed' && p.failed_at && `failed ${formatDateTime(p.failed_at)}`,
    p.reversed_at && `reversed ${formatDateTime(p.reversed_at)}`,
    sent && p.transfer_reference && `transfer ${p.transfer_reference}`,
  ]
    .filter(Boolean)
    .join(' · ')
}

const selects: FilterSelect[] = [
  { field: 'status', label: 'Status', anyLabel: 'All statuses', options: payoutStatusOptions },
]

export function AllPayoutsPanel() {
  const [filters, setFilters] = useMoneyFilters('pay')
  const payouts = useAllPayoutRequestsQuery(filters)
  const exporter = usePayoutsExportMutation()
  const [paying, setPaying] = useState<Target | null>(null)
  const [retrying, setRetrying] = useState<(Target & { reason: string | null }) | null>(null)
  const update = (next: MoneyFilters) => {
    exporter.reset()
    setFilters(next)
  }
  return (
    <div className="space-y-3">
      <MoneyFilterBar
        filters={filters}
        onChange={update}
        label="Search payout requests"
        searchLabel="Search by email, name, transfer reference or reason"
        selects={selects}
      />
      {payouts.isPending ? (
        <div role="status" aria-label="Loading payout requests">
          <Skeleton className="h-24" />
        </div>
      ) : payouts.isError ? (
        <QueryError
          title="Could not load payout requests"
          error={payouts.error}
          onRetry={() => void payouts.refetch()}
        />
      ) : payouts.data.total === 0 && filters.page > 0 ? (
        <PastTheEnd onFirstPage={() => setFilters({ ...filters, page: 0 })} />
      ) : payouts.data.total === 0 ? (
        <p className="text-muted-foreground">
          {isFiltered(filters) ? 'No payout requests match these filters.' : 'No payout requests yet.'}
        </p>
      ) : (
        <>
          <p className="text-sm text-muted-foreground" data-testid="admin-payout-summary">
            {payouts.data.inFlight} in flight · {payouts.data.failed} failed
          </p>
          <MoneyExportButton exporter={exporter} filters={filters} label="Export payout requests as CSV" />
          <PayoutList rows={payouts.data.rows} onPay={setPaying} onRetry={setRetrying} />
          <Pager
            label="Payout request pages"
            page={filters.page}
            pageSize={ADMIN_PAYOUTS_PAGE_SIZE}
            total={payouts.data.total}
            onPageChange={(page) => setFilters({ ...filters, page })}
          />
        </>
      )}
      <MarkPaidDialog
        payout={paying}
        onClose={() => setPaying(null)}
        onPaid={() => toast.success('Payout marked paid')}
      />
      <RetryPayoutDialog
        payout={retrying}
        onClose={() => setRetrying(null)}
        onRetried={() => toast.success('Payout sent again')}
      />
    </div>
  )
}

function PayoutList({
  rows,
  onPay,
  onRetry,
}: {
  rows: AnyPayoutRequest[]
  onPay: (target: Target) => void
  onRetry: (target: Target & { reason: string | null }) => void
}) {
  return (
    <ul className="space-y-2" aria-label="Payout requests">
      {rows.map((p) => {
        const who = p.publisher_name || 'A publisher without a name'
        const target = { id: p.id, amount: Number(p.amount), who }
        const open = p.status === 'requested' || p.status === 'failed'
        return (
          <li
            key={p.id}
            className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-3 text-sm"
            data-testid="admin-payout-row"
          >
            <div>
              <p className="font-medium">
                {who} · {formatCredits(p.amount)}
              </p>
              <p className="text-xs break-all text-muted-foreground">{p.publisher_email}</p>
              <p className="text-muted-foreground">{dates(p)}</p>
              {p.status === 'failed' && p.failure_reason && (
                <p className="text-red-700">
                  {p.failed_before_transfer ? 'Not sent' : 'Stripe refused the transfer'}: {p.failure_reason}
                </p>
              )}
              {Number(p.amount_reversed) > 0 && (
                <p className="text-red-700">
                  Stripe reversed {formatCredits(p.amount_reversed)} of the transfer: available to the publisher again.
                </p>
              )}
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant={payoutStatus(p.status).tone}>{payoutStatus(p.status).label}</Badge>
              {p.status === 'failed' && (
                <Button
                  size="sm"
                  aria-label={`Retry ${formatCredits(p.amount)} to ${who}`}
                  onClick={() => onRetry({ ...target, reason: p.failure_reason })}
                >
                  Retry
                </Button>
              )}
              {open && (
                <Button
                  size="sm"
                  variant="outline"
                  aria-label={`Mark paid by hand ${formatCredits(p.amount)} to ${who}`}
                  onClick={() => onPay(target)}
                >
                  Mark paid by hand
                </Button>
              )}
            </div>
          </li>
        )
      })}
    </ul>
  )
}
