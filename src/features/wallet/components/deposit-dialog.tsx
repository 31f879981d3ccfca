/**
 * The deposit dialog: an amount in credits (within the deposit limits of @rules/deposit), what will be charged, and
 * Continue, which opens the hosted checkout. Bad amounts are refused here before any call, with the words
 * the function would use; a refusal from the function shows next to the field and in a toast.
 */
import { useId, useState, type ReactNode } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { MAX_DEPOSIT, MIN_DEPOSIT } from '@rules/deposit'
import { numberText } from '@rules/numbers'
import { formatCredits } from '@/lib/format'
import {
  depositSchema,
  useCheckoutSessionMutation,
  type DepositFormInput,
  type DepositFormValues,
} from '../api/checkout-session-mutation'

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

/** Leaving the SPA for the checkout page (Stripe's, or the local one) is a full navigation. */
const openCheckout = (url: string) => window.location.assign(url)

type DepositDialogProps = {
  trigger: ReactNode
  /** Pre-filled amount, e.g. what a campaign needs. */
  defaultAmount?: string
  /** Where the checkout URL goes; tests pass their own. */
  redirect?: (url: string) => void
}

export function DepositDialog({ trigger, defaultAmount = '', redirect = openCheckout }: DepositDialogProps) {
  const id = useId()
  const [open, setOpen] = useState(false)
  const form = useForm<DepositFormInput, unknown, DepositFormValues>({
    resolver: zodResolver(depositSchema),
    defaultValues: { amount: defaultAmount },
  })
  const mutation = useCheckoutSessionMutation({ onSuccess: ({ url }) => redirect(url) })
  const typed = useWatch({ control: form.control, name: 'amount' })
  const parsed = depositSchema.safeParse({ amount: typed ?? '' })
  // After success the browser is on its way to the checkout: keep the button busy until it leaves.
  const busy = mutation.isPending || mutation.isSuccess

  const onSubmit = form.handleSubmit(async ({ amount }) => {
    await mutation.mutateAsync({ amount }).catch((error: Error) => form.setError('amount', { message: error.message }))
  })

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) {
          form.reset({ amount: defaultAmount })
          mutation.reset()
        }
        setOpen(next)
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add funds</DialogTitle>
          <DialogDescription>
            Buy credits for your campaigns: 1 credit = 1 US dollar, from {numberText(MIN_DEPOSIT)} to{' '}
            {numberText(MAX_DEPOSIT)} credits per payment.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4" data-testid="deposit-form">
          <FormField id={`${id}-amount`} label="Amount (credits)" error={form.formState.errors.amount?.message}>
            <Input
              inputMode="decimal"
              autoComplete="off"
              placeholder="25.00"
              data-testid="deposit-amount"
              {...form.register('amount')}
            />
          </FormField>
          <p className="rounded-md bg-muted p-3 text-sm" aria-live="polite" data-testid="deposit-charge">
            {parsed.success ? (
              <>
                You will be charged <strong>{usd.format(parsed.data.amount)}</strong> (USD) on the secure payment page;{' '}
                {formatCredits(parsed.data.amount)} are added to your wallet once the payment is confirmed.
              </>
            ) : (
              'Enter an amount to see what you will be charged.'
            )}
          </p>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={busy} data-testid="deposit-continue">
              {busy ? 'Opening the payment page…' : 'Continue'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
