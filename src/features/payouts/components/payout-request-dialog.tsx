/**
 * The payout request dialog: states the available amount (from the database, what request_payout checks),
 * suggests all of it, and asks for confirmation of the exact amount before the request is sent.
 */
import { useId, useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { MIN_PAYOUT } from '@rules/payout'
import {
  payoutSchema,
  usePayoutRequestMutation,
  type PayoutFormInput,
  type PayoutFormValues,
} from '../api/payout-request-mutation'
import { formatCredits } from '@/lib/format'

type Props = {
  userId: string
  available: number
  /** Why payouts cannot be sent yet (the payout account is not ready), shown beside the disabled button. */
  blockedBecause?: string | null
}

export function PayoutRequestDialog({ userId, available, blockedBecause = null }: Props) {
  const id = useId()
  const [open, setOpen] = useState(false)
  const form = useForm<PayoutFormInput, unknown, PayoutFormValues>({
    resolver: zodResolver(payoutSchema(available)),
    values: { amount: available >= MIN_PAYOUT ? available.toFixed(2) : '' },
  })
  const mutation = usePayoutRequestMutation({ onSuccess: () => setOpen(false) })
  const error = form.formState.errors.amount?.message
  const typed = Number(useWatch({ control: form.control, name: 'amount' }))
  const onSubmit = form.handleSubmit(async ({ amount }) => {
    await mutation.mutateAsync({ userId, amount }).catch((e: Error) => form.setError('amount', { message: e.message }))
  })
  const canRequest = available >= MIN_PAYOUT && !blockedBecause
  const whyNot = `${id}-why-not`

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) form.clearErrors()
        setOpen(next)
      }}
    >
      <div className="flex flex-col gap-2">
        {blockedBecause && (
          <p id={whyNot} className="text-sm text-muted-foreground" data-testid="payout-blocked-reason">
            {blockedBecause}
          </p>
        )}
        <div>
          <DialogTrigger asChild>
            <Button
              disabled={!canRequest}
              aria-describedby={blockedBecause ? whyNot : undefined}
              data-testid="open-payout-dialog"
            >
              Request a payout
            </Button>
          </DialogTrigger>
        </div>
      </div>
      <DialogContent>
        <form noValidate onSubmit={(e) => void onSubmit(e)} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Request a payout</DialogTitle>
            <DialogDescription>
              You have <strong data-testid="payout-dialog-available">{formatCredits(available)}</strong> available. The
              minimum is {MIN_PAYOUT} credits; it is sent to your bank account through Stripe.
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-amount`}>Amount (credits)</Label>
            <Input
              id={`${id}-amount`}
              inputMode="decimal"
              autoComplete="off"
              aria-invalid={Boolean(error)}
              aria-describedby={error ? `${id}-amount-error` : undefined}
              {...form.register('amount')}
            />
            {error && (
              <p id={`${id}-amount-error`} role="alert" className="text-sm text-red-700">
                {error}
              </p>
            )}
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={mutation.isPending} data-testid="confirm-payout-request">
              {mutation.isPending
                ? 'Requesting…'
                : Number.isFinite(typed) && typed > 0
                  ? `Request ${formatCredits(typed)}`
                  : 'Request payout'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
