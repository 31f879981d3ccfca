/**
 * Mark paid by hand, for publishers paid outside Stripe: confirms the payout with its amount and recipient, and asks
 * for the reference of the transfer that paid it.
 */
import { useId } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { formatCredits } from '@/lib/format'
import {
  markPaidSchema,
  usePayoutPaidMutation,
  type MarkPaidInput,
  type MarkPaidValues,
} from '../api/payout-paid-mutation'

type Props = { payout: { id: string; amount: number; who: string } | null; onClose: () => void; onPaid: () => void }

export function MarkPaidDialog({ payout, onClose, onPaid }: Props) {
  const id = useId()
  const form = useForm<MarkPaidInput, unknown, MarkPaidValues>({
    resolver: zodResolver(markPaidSchema),
    defaultValues: { reference: '' },
  })
  // The database's refusal (already paid, not enough available) shows under the field, not in a toast.
  const paid = usePayoutPaidMutation({
    onSuccess: onPaid,
    onError: (e) => form.setError('reference', { message: e.message }),
  })
  const close = () => {
    form.reset({ reference: '' })
    onClose()
  }
  const onSubmit = form.handleSubmit(async ({ reference }) => {
    if (!payout) return
    await paid.mutateAsync({ payoutId: payout.id, reference }).then(close, () => undefined)
  })
  return (
    <Dialog open={payout !== null} onOpenChange={(open) => !open && close()}>
      <DialogContent>
        {payout && (
          <form noValidate className="grid gap-4" onSubmit={(e) => void onSubmit(e)}>
            <DialogHeader>
              <DialogTitle>Mark {formatCredits(payout.amount)} paid by hand</DialogTitle>
              <DialogDescription>
                Confirm that you transferred <strong>{formatCredits(payout.amount)}</strong> (US$
                {payout.amount.toFixed(2)}) to {payout.who} yourself, outside Stripe. The amount leaves their balance
                and they get an email with the reference.
              </DialogDescription>
            </DialogHeader>
            <FormField
              id={`${id}-reference`}
              label="Transfer reference"
              error={form.formState.errors.reference?.message}
            >
              <Input maxLength={200} autoComplete="off" {...form.register('reference')} />
            </FormField>
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
