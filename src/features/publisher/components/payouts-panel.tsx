/** Payouts: request a payout of available earnings (minimum 50 credits) and see the history. */
import { useId } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { usePublisherEarningsQuery } from '../api/publisher-earnings-query'
import { MIN_PAYOUT, payoutSchema, usePayoutRequestMutation, type PayoutFormInput, type PayoutFormValues } from '../api/payout-request-mutation'
import { usePayoutRequestsQuery } from '../api/payout-requests-query'
import { formatCredits } from '../lib/earnings'
import { PanelState } from './panel-state'

export function PayoutsPanel({ userId }: { userId: string }) {
  const id = useId()
  const earnings = usePublisherEarningsQuery(userId)
  const payouts = usePayoutRequestsQuery(userId)
  const form = useForm<PayoutFormInput, unknown, PayoutFormValues>({
    resolver: zodResolver(payoutSchema),
    defaultValues: { amount: '' },
  })
  const mutation = usePayoutRequestMutation({ onSuccess: () => form.reset({ amount: '' }) })
  const error = form.formState.errors.amount?.message
  const onSubmit = form.handleSubmit(async ({ amount }) => {
    await mutation.mutateAsync({ userId, amount }).catch((e: Error) => form.setError('amount', { message: e.message }))
  })

  return (
    <div className="flex flex-col gap-6">
      <section className="flex flex-col gap-3 rounded-lg border bg-card p-4" aria-labelledby="payout-title">
        <h2 id="payout-title" className="text-xl font-semibold">
          Request a payout
        </h2>
        <p className="text-sm text-muted-foreground">
          Available: <strong>{earnings.data ? formatCredits(earnings.data.available) : '…'}</strong>. The minimum payout
          is {MIN_PAYOUT} credits; an admin marks it paid.
        </p>
        <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${id}-amount`}>Amount (credits)</Label>
            <Input
              id={`${id}-amount`}
              inputMode="decimal"
              aria-invalid={Boolean(error)}
              aria-describedby={error ? `${id}-amount-error` : undefined}
              {...form.register('amount')}
            />
          </div>
          <Button type="submit" disabled={mutation.isPending}>
            {mutation.isPending ? 'Requesting…' : 'Request payout'}
          </Button>
        </form>
        {error && (
          <p id={`${id}-amount-error`} role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
      </section>
      <section className="flex flex-col gap-2" aria-labelledby="payout-history-title">
        <h2 id="payout-history-title" className="text-xl font-semibold">
          History
        </h2>
        {payouts.isPending ? (
          <PanelState state="loading" />
        ) : payouts.isError ? (
          <PanelState state="error" message={payouts.error.message} />
        ) : payouts.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No payout requests yet.</p>
        ) : (
          <ul className="divide-y rounded-lg border">
            {payouts.data.map((p) => (
              <li key={p.id} className="flex items-center justify-between gap-2 p-3 text-sm">
                <span>{new Date(p.created_at).toLocaleDateString()}</span>
                <span className="font-medium">{formatCredits(Number(p.amount))}</span>
                <Badge variant={p.status === 'paid' ? 'green' : p.status === 'requested' ? 'yellow' : 'grey'}>{p.status}</Badge>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}
