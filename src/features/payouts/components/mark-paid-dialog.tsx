/** Confirms a payout with its amount and recipient, and asks for the reference of the transfer that paid it. */
import { useId, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { formatCredits } from '@/lib/format'
import { transferReferenceError, usePayoutPaidMutation } from '../api/payout-paid-mutation'

type Props = { payout: { id: string; amount: number; who: string } | null; onClose: () => void; onPaid: () => void }

export function MarkPaidDialog({ payout, onClose, onPaid }: Props) {
  const id = useId()
  const [reference, setReference] = useState('')
  const [error, setError] = useState<string | null>(null)
  const paid = usePayoutPaidMutation({ onSuccess: onPaid, onError: (e) => setError(e.message) })
  const close = () => {
    setReference('')
    setError(null)
    onClose()
  }
  return (
    <Dialog open={payout !== null} onOpenChange={(open) => !open && close()}>
      <DialogContent>
        {payout && (
          <form
            noValidate
            className="grid gap-4"
            onSubmit={(event) => {
              event.preventDefault()
              const problem = transferReferenceError(reference)
              setError(problem)
              if (!problem) paid.mutate({ payoutId: payout.id, reference }, { onSuccess: close })
            }}
          >
            <DialogHeader>
              <DialogTitle>Mark {formatCredits(payout.amount)} paid</DialogTitle>
              <DialogDescription>
                Confirm that you transferred <strong>{formatCredits(payout.amount)}</strong> (US${payout.amount.toFixed(2)}) to{' '}
                {payout.who}. The amount leaves their balance and they get an email with the reference.
              </DialogDescription>
            </DialogHeader>
            <div className="grid gap-1.5">
              <Label htmlFor={`${id}-reference`}>Transfer reference</Label>
              <Input
                id={`${id}-reference`}
                value={reference}
                maxLength={200}
                autoComplete="off"
                onChange={(e) => setReference(e.target.value)}
                aria-invalid={Boolean(error)}
                aria-describedby={error ? `${id}-error` : undefined}
              />
              {error && (
                <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
                  {error}
                </p>
              )}
            </div>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" disabled={paid.isPending} data-testid="confirm-mark-paid">
                {paid.isPending ? 'Saving…' : `Mark ${formatCredits(payout.amount)} paid`}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  )
}
