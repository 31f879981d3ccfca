/**
 * Change a newsletter's price per subscriber. It applies to new subscriptions only: subscribers already reserved
 * or on hold keep the price they were promised (the database records it on each subscription).
 */
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { PRICE_RANGE_HINT } from '@rules/price'
import { toast } from '@/lib/toast'
import { formatCredits, toCredits } from '@/lib/format'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import type { CampaignDetail } from '../api/campaign-detail-query'
import { useCampaignUpdateMutation } from '../api/campaign-update-mutation'
import { campaignPriceSchema } from '../campaign-schema'
import { PriceGuidance } from './price-guidance'

export function CampaignPriceForm({ campaign }: { campaign: CampaignDetail }) {
  const form = useForm<{ pricePerSubscriber: number }>({
    resolver: zodResolver(campaignPriceSchema),
    defaultValues: { pricePerSubscriber: toCredits(campaign.price_per_subscriber) },
  })
  const error = form.formState.errors.pricePerSubscriber?.message
  const price = useWatch({ control: form.control, name: 'pricePerSubscriber' })
  const save = useCampaignUpdateMutation({
    action: 'change the price',
    onSuccess: () => toast.success('Price updated: it applies to new subscribers'),
    onError: (e) => {
      form.setError('pricePerSubscriber', { message: e.message })
      toast.error(`Failed to change the price: ${e.message}`)
    },
  })
  const onSubmit = form.handleSubmit(async ({ pricePerSubscriber }) => {
    await save
      .mutateAsync({ campaignId: campaign.id, changes: { price_per_subscriber: pricePerSubscriber } })
      .catch(() => undefined)
  })
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-3" data-testid="campaign-price-form">
      <p className="text-sm text-muted-foreground">
        Now {formatCredits(campaign.price_per_subscriber)} per subscriber. A new price applies to new subscribers; the{' '}
        {campaign.reservations_open} already reserved keep the price they were promised.
      </p>
      <FormField
        id="price-per-subscriber"
        label="New price per subscriber (credits)"
        hint={PRICE_RANGE_HINT}
        error={error}
      >
        <Input
          id="price-per-subscriber"
          type="number"
          inputMode="decimal"
          step="0.01"
          {...form.register('pricePerSubscriber', { valueAsNumber: true })}
          aria-invalid={!!error}
        />
      </FormField>
      <PriceGuidance price={price} />
      <div>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          Save price
        </Button>
      </div>
    </form>
  )
}
