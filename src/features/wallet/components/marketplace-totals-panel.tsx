/** Marketplace totals at a glance, as the database computes them. */
import { Skeleton } from '@/components/ui/skeleton'
import { useMarketplaceTotalsQuery } from '../api/marketplace-totals-query'
import { formatCredits } from '@/lib/format'
import { QueryError } from '@/components/query-error'

const plural = (n: number, noun: string) => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`

export function MarketplaceTotalsPanel() {
  const totals = useMarketplaceTotalsQuery()
  if (totals.isPending) {
    return (
      <div role="status" aria-label="Loading marketplace totals">
        <Skeleton className="h-24" />
      </div>
    )
  }
  if (totals.isError) {
    return (
      <QueryError
        title="Could not load marketplace totals"
        error={totals.error}
        onRetry={() => void totals.refetch()}
      />
    )
  }
  const t = totals.data
  const figures = [
    { label: 'Credits in wallets', value: formatCredits(t.balance), note: plural(t.wallets, 'wallet') },
    { label: 'On hold (screening)', value: formatCredits(t.held) },
    { label: 'Reserved (pending subscribers)', value: formatCredits(t.reserved) },
    { label: 'Pending publisher earnings', value: formatCredits(t.pendingEarnings) },
    { label: 'Advertiser spend', value: formatCredits(t.spend) },
    { label: 'Publisher earnings', value: formatCredits(t.earnings) },
    { label: 'Platform fees', value: formatCredits(t.platformFees) },
    { label: 'Open payout requests', value: formatCredits(t.openPayouts), note: plural(t.openPayoutCount, 'request') },
    { label: 'Paid out to publishers', value: formatCredits(t.paidOut) },
    { label: 'Open disputes', value: t.openDisputes.toLocaleString('en-US') },
  ]
  return (
    <div className="space-y-2">
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4" data-testid="marketplace-totals">
        {figures.map((f) => (
          <div key={f.label} className="rounded-lg border p-3">
            <dt className="text-sm text-muted-foreground">{f.label}</dt>
            <dd className="text-lg font-semibold tabular-nums">{f.value}</dd>
            {f.note && <dd className="text-xs text-muted-foreground">{f.note}</dd>}
          </div>
        ))}
      </dl>
    </div>
  )
}
