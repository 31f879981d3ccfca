/** Confirms sending a failed payout again through Stripe, stating the amount, the recipient and why it failed. */
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { formatCredits } from '@/lib/format'
import { usePayoutRetryMutation } from '../api/payout-retry-mutation'

type Props = {
  payout: { id: string; amount: number; who: string; reason: string | null } | null
  onClose: () => void
  onRetried: () => void
}

export function RetryPayoutDialog({ payout, onClose, onRetried }: Props) {
  const retry = usePayoutRetryMutation({
    onSuccess: () => {
      onRetried()
      onClose()
    },
  })
  return (
    <Dialog open={payout !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        {payout && (
          <>
            <DialogHeader>
              <DialogTitle>Retry the payout of {formatCredits(payout.amount)}</DialogTitle>
              <DialogDescription>
                Send <strong>{formatCredits(payout.amount)}</strong> (US${payout.amount.toFixed(2)}) to {payout.who}{' '}
                through Stripe again.
                {payout.reason && ` The last transfer failed: ${payout.reason}.`} The publisher&apos;s available balance
                and payout account are checked again first.
              </DialogDescription>
            </DialogHeader>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={onClose}>
                Cancel
              </Button>
              <Button
                type="button"
                disabled={retry.isPending}
                onClick={() => retry.mutate({ payoutId: payout.id })}
                data-testid="confirm-retry-payout"
              >
                {retry.isPending ? 'Sending…' : `Retry ${formatCredits(payout.amount)}`}
              </Button>
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  )
}
