/**
 * The advertiser's money in its four parts, as `advertiser_balance()` computes them, written so they visibly
 * add up: available + reserved + on hold = balance.
 */
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { useWalletSummaryQuery } from '../api/wallet-summary-query'
import { formatCredits } from '@/lib/format'
import { metrics } from '@/lib/metrics'
import { QueryError } from '@/components/query-error'

export function WalletBalanceCard({ userId }: { userId: string }) {
  const query = useWalletSummaryQuery(userId)
  return (
    <Card data-testid="wallet-balance">
      <CardHeader>
        <CardTitle>Balance</CardTitle>
        <CardDescription>
          1 credit = 1 US dollar. A pending subscriber's price is reserved until they confirm; charges stay on hold for
          the 7-day screening period.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <div role="status" aria-label="Loading wallet" className="grid gap-3 sm:grid-cols-4">
            <Skeleton className="h-14" />
            <Skeleton className="h-14" />
            <Skeleton className="h-14" />
            <Skeleton className="h-14" />
          </div>
        ) : query.isError ? (
          <QueryError title="Could not load your wallet" error={query.error} onRetry={() => void query.refetch()} />
        ) : (
          <>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-describedby="wallet-sum">
              <Figure
                label={metrics.available.label}
                hint={metrics.available.definition}
                value={formatCredits(query.data.available)}
                testId="wallet-available"
                strong
              />
              <Figure
                label={metrics.reserved.label}
                hint={metrics.reserved.definition}
                value={formatCredits(query.data.reserved)}
                testId="wallet-reserved"
              />
              <Figure
                label={metrics.onHold.label}
                hint={metrics.onHold.definition}
                value={formatCredits(query.data.onHold)}
                testId="wallet-held"
              />
              <Figure
                label={metrics.balance.label}
                hint={metrics.balance.definition}
                value={formatCredits(query.data.balance)}
                testId="wallet-total"
              />
            </dl>
            <p id="wallet-sum" className="mt-3 text-sm text-muted-foreground" data-testid="wallet-sum">
              {metrics.available.label} {formatCredits(query.data.available)} + {metrics.reserved.label.toLowerCase()}{' '}
              {formatCredits(query.data.reserved)} + {metrics.onHold.label.toLowerCase()}{' '}
              {formatCredits(query.data.onHold)} = {metrics.balance.label.toLowerCase()}{' '}
              {formatCredits(query.data.balance)}
            </p>
          </>
        )}
      </CardContent>
    </Card>
  )
}

function Figure({
  label,
  hint,
  value,
  testId,
  strong,
}: {
  label: string
  hint: string
  value: string
  testId: string
  strong?: boolean
}) {
  return (
    <div className="rounded-md border p-3" title={hint}>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd data-testid={testId} className={strong ? 'text-2xl font-bold' : 'text-xl font-semibold'}>
        {value}
      </dd>
    </div>
  )
}
