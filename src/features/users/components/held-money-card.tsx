/**
 * A suspended user's money still in screening (PRODUCT "Fair to both sides": nothing earned fairly is taken without a
 * decision). It is neither settled nor refunded while the account is suspended; the admin decides: reinstate (it
 * settles as usual) or refund it, behind a confirmation with the reason both sides read.
 */
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Metric, metricValue } from '@/components/metric'
import { QueryError } from '@/components/query-error'
import { ReasonDialog } from '@/components/reason-dialog'
import { formatCredits } from '@/lib/format'
import { metrics } from '@/lib/metrics'
import { useHeldMoneyQuery } from '../api/held-money-query'
import { useRefundHeldMoneyMutation } from '../api/refund-held-money-mutation'

export function HeldMoneyCard({ userId, who }: { userId: string; who: string }) {
  const held = useHeldMoneyQuery(userId)
  const [open, setOpen] = useState(false)
  const refund = useRefundHeldMoneyMutation({ onSuccess: () => setOpen(false) })
  const data = held.data
  return (
    <Card data-testid="user-held-money">
      <CardHeader>
        <CardTitle>Held by the suspension</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        {held.isError ? (
          <QueryError title="Could not load the held money" error={held.error} onRetry={() => void held.refetch()} />
        ) : (
          <>
            <p className="text-sm text-muted-foreground">
              Subscribers of this account still in screening are neither charged nor refunded while it is suspended.
              Reinstate the account and they settle as usual, or refund them.
            </p>
            <dl className="grid gap-3 sm:grid-cols-4">
              <Metric
                label="Subscribers"
                value={metricValue(held, () => data!.subscribers)}
                testId="held-subscribers"
              />
              <Metric
                label={metrics.onHold.label}
                value={metricValue(held, () => formatCredits(data!.onHold))}
                testId="held-on-hold"
              />
              <Metric
                label="Pending earnings"
                value={metricValue(held, () => formatCredits(data!.pendingEarnings))}
                testId="held-pending-earnings"
              />
              <Metric
                label="Past screening"
                value={metricValue(held, () => data!.pastScreening)}
                hint="Waiting only for your decision"
                testId="held-past-screening"
              />
            </dl>
            <Button variant="destructive" disabled={!data || data.subscribers === 0} onClick={() => setOpen(true)}>
              Refund held money
            </Button>
          </>
        )}
        <ReasonDialog
          open={open}
          onOpenChange={setOpen}
          title={`Refund ${data ? formatCredits(data.onHold) : 'the held money'} held for ${who}?`}
          description="Each subscriber still in screening is refunded as an upheld dispute would be: the advertiser's hold is released and the publisher's pending earning cancelled. Both sides read the reason. This cannot be undone."
          confirmLabel="Refund"
          reasonRequired
          destructive
          pending={refund.isPending}
          onConfirm={(reason) => refund.mutate({ userId, reason })}
        />
      </CardContent>
    </Card>
  )
}
