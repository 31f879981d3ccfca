/**
 * Payout requests: open ones can be marked paid after a confirmation that states the amount and the publisher
 * (STYLE "Dashboards": money actions ask first); the database re-checks the publisher's balance.
 */
import { useState } from 'react'
import { toast } from '@/lib/toast'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Skeleton } from '@/components/ui/skeleton'
import { usePayoutRequestsQuery } from '../api/payout-requests-query'
import { usePayoutPaidMutation } from '../api/payout-paid-mutation'
import { formatCredits, formatDateTime } from '@/lib/format'
import { payoutStatus } from '@/lib/vocabulary'
import { QueryError } from '@/components/query-error'

export function PayoutsPanel() {
  const payouts = usePayoutRequestsQuery()
  const [confirming, setConfirming] = useState<{ id: string; amount: number | string; who: string } | null>(null)
  const paid = usePayoutPaidMutation({
    onSuccess: () => {
      toast.success('Payout marked paid')
      setConfirming(null)
    },
  })
  if (payouts.isPending) {
    return (
      <div role="status" aria-label="Loading payout requests">
        <Skeleton className="h-24" />
      </div>
    )
  }
  if (payouts.isError) {
    return (
      <QueryError title="Could not load payout requests" error={payouts.error} onRetry={() => void payouts.refetch()} />
    )
  }
  if (payouts.data.length === 0) return <p className="text-muted-foreground">No payout requests yet.</p>
  return (
    <>
      <ul className="space-y-2" aria-label="Payout requests">
        {payouts.data.map((p) => {
          const who = p.publisher?.full_name || 'A publisher without a name'
          return (
            <li key={p.id} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-3 text-sm">
              <div>
                <p className="font-medium">
                  {who} · {formatCredits(p.amount)}
                </p>
                <p className="text-muted-foreground">
                  Requested {formatDateTime(p.created_at)}
                  {p.paid_at && ` · paid ${formatDateTime(p.paid_at)}`}
                </p>
              </div>
              {p.status === 'requested' ? (
                <Button
                  size="sm"
                  disabled={paid.isPending && paid.variables === p.id}
                  aria-label={`Mark paid ${formatCredits(p.amount)} to ${who}`}
                  onClick={() => setConfirming({ id: p.id, amount: p.amount, who })}
                >
                  Mark paid
                </Button>
              ) : (
                <Badge variant={payoutStatus(p.status).tone}>{payoutStatus(p.status).label}</Badge>
              )}
            </li>
          )
        })}
      </ul>
      <Dialog open={confirming !== null} onOpenChange={(open) => (open ? null : setConfirming(null))}>
        <DialogContent>
          {confirming ? (
            <>
              <DialogHeader>
                <DialogTitle>
                  Mark {formatCredits(confirming.amount)} paid to {confirming.who}?
                </DialogTitle>
                <DialogDescription>
                  Do this only once the transfer has left your bank. {formatCredits(confirming.amount)} leaves{' '}
                  {confirming.who}’s available earnings and the payout shows as paid to them; it cannot be undone here.
                </DialogDescription>
              </DialogHeader>
              <DialogFooter>
                <Button variant="outline" onClick={() => setConfirming(null)}>
                  Cancel
                </Button>
                <Button disabled={paid.isPending} onClick={() => paid.mutate(confirming.id)}>
                  {paid.isPending ? 'Marking paid…' : `Mark ${formatCredits(confirming.amount)} paid`}
                </Button>
              </DialogFooter>
            </>
          ) : null}
        </DialogContent>
      </Dialog>
    </>
  )
}
