/** Balance, on hold and available: the three numbers an advertiser needs before running campaigns. */
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { useWalletSummaryQuery } from '../api/wallet-summary-query'
import { formatCredits } from '@/lib/format'
import { QueryError } from '@/components/query-error'

export function WalletBalanceCard({ userId }: { userId: string }) {
  const query = useWalletSummaryQuery(userId)
  return (
    <Card data-testid="wallet-balance">
      <CardHeader>
        <CardTitle>Balance</CardTitle>
        <CardDescription>1 credit = 1 US dollar. Charges stay on hold for the 7-day screening period.</CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <div role="status" aria-label="Loading wallet" className="grid gap-3 sm:grid-cols-3">
            <Skeleton className="h-14" />
            <Skeleton className="h-14" />
            <Skeleton className="h-14" />
          </div>
        ) : query.isError ? (
          <QueryError title="Could not load your wallet" error={query.error} onRetry={() => void query.refetch()} />
        ) : (
          <dl className="grid gap-3 sm:grid-cols-3">
            <Figure label="Available" value={formatCredits(query.data.available)} testId="wallet-available" strong />
            <Figure label="On hold" value={formatCredits(query.data.held)} testId="wallet-held" />
            <Figure label="Balance" value={formatCredits(query.data.balance)} testId="wallet-total" />
          </dl>
        )}
      </CardContent>
    </Card>
  )
}

function Figure({ label, value, testId, strong }: { label: string; value: string; testId: string; strong?: boolean }) {
  return (
    <div className="rounded-md border p-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd data-testid={testId} className={strong ? 'text-2xl font-bold' : 'text-xl font-semibold'}>
        {value}
      </dd>
    </div>
  )
}
