/**
 * Submit a newsletter: validated in the form (messages next to each field and a toast), then inserted;
 * whatever the database still refuses is shown as it says it.
 */
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { MAX_PRICE_PER_SUBSCRIBER, MIN_PRICE_PER_SUBSCRIBER, PRICE_RANGE_HINT } from '@rules/price'
import { toast } from '@/lib/toast'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { useCampaignCreateMutation } from '../api/campaign-create-mutation'
import { campaignFormSchema, type CampaignFormInput, type CampaignFormValues } from '../campaign-schema'
import { FormField } from '@/components/form-field'
import { PriceGuidance } from './price-guidance'
import { categoryOptions } from '@/lib/vocabulary-catalog'
import { partnerModeOptions } from '@/lib/vocabulary'

type CampaignFormProps = { advertiserId: string; onCreated: (campaign: { id: string; name: string }) => void }

const selectClass =
  'flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none aria-invalid:border-destructive md:text-sm'

export function CampaignForm({ advertiserId, onCreated }: CampaignFormProps) {
  const form = useForm<CampaignFormInput, unknown, CampaignFormValues>({
    resolver: zodResolver(campaignFormSchema),
    defaultValues: {
      name: '',
      description: '',
      imageUrl: '',
      websiteUrl: '',
      category: undefined,
      partnerMode: 'open',
    },
  })
  const { register, handleSubmit, formState } = form
  const price = Number(useWatch({ control: form.control, name: 'pricePerSubscriber' }))
  const errors = formState.errors
  const create = useCampaignCreateMutation({
    onSuccess: onCreated,
    // The database's own words: a check constraint or policy message the form did not anticipate.
    onError: (error) => {
      form.setError('root.server', { message: error.message })
      toast.error(`Failed to submit the newsletter: ${error.message}`)
    },
  })

  const onSubmit = handleSubmit(
    async (values) => {
      await create.mutateAsync({ ...values, advertiserId }).catch(() => undefined)
    },
    () => toast.error('Please fix the highlighted fields'),
  )

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4" data-testid="submit-newsletter-form">
      <FormField id="name" label="Newsletter name" error={errors.name?.message}>
        <Input
          id="name"
          {...register('name')}
          aria-invalid={!!errors.name}
          aria-describedby={errors.name ? 'name-error' : undefined}
        />
      </FormField>
      <FormField id="description" label="Description" error={errors.description?.message}>
        <Textarea
          id="description"
          rows={4}
          {...register('description')}
          aria-invalid={!!errors.description}
          aria-describedby={errors.description ? 'description-error' : undefined}
        />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="imageUrl" label="Image URL" hint="Optional" error={errors.imageUrl?.message}>
          <Input
            id="imageUrl"
            type="url"
            placeholder="https://"
            {...register('imageUrl')}
            aria-invalid={!!errors.imageUrl}
            aria-describedby={errors.imageUrl ? 'imageUrl-error' : 'imageUrl-hint'}
          />
        </FormField>
        <FormField id="websiteUrl" label="Website URL" error={errors.websiteUrl?.message}>
          <Input
            id="websiteUrl"
            type="url"
            placeholder="https://"
            {...register('websiteUrl')}
            aria-invalid={!!errors.websiteUrl}
            aria-describedby={errors.websiteUrl ? 'websiteUrl-error' : undefined}
          />
        </FormField>
      </div>
      <FormField id="category" label="Category" error={errors.category?.message}>
        <select
          id="category"
          className={selectClass}
          defaultValue=""
          {...register('category')}
          aria-invalid={!!errors.category}
          aria-describedby={errors.category ? 'category-error' : undefined}
        >
          <option value="" disabled>
            Choose a category
          </option>
          {categoryOptions.map((category) => (
            <option key={category.value} value={category.value}>
              {category.label}
            </option>
          ))}
        </select>
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          id="pricePerSubscriber"
          label="Price per subscriber (credits)"
          hint={PRICE_RANGE_HINT}
          error={errors.pricePerSubscriber?.message}
        >
          <Input
            id="pricePerSubscriber"
            type="number"
            inputMode="decimal"
            step="0.01"
            min={MIN_PRICE_PER_SUBSCRIBER}
            max={MAX_PRICE_PER_SUBSCRIBER}
            {...register('pricePerSubscriber', { valueAsNumber: true })}
            aria-invalid={!!errors.pricePerSubscriber}
            aria-describedby={errors.pricePerSubscriber ? 'pricePerSubscriber-error' : 'pricePerSubscriber-hint'}
          />
        </FormField>
        <FormField
          id="budgetTotal"
          label="Budget (credits)"
          hint="The most this newsletter may spend"
          error={errors.budgetTotal?.message}
        >
          <Input
            id="budgetTotal"
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0"
            {...register('budgetTotal', { valueAsNumber: true })}
            aria-invalid={!!errors.budgetTotal}
            aria-describedby={errors.budgetTotal ? 'budgetTotal-error' : 'budgetTotal-hint'}
          />
        </FormField>
      </div>
      <FormField
        id="partnerMode"
        label="Who may promote it"
        hint="By approval: influencers apply and only the sources you approve on the Partners page are paid."
        error={errors.partnerMode?.message}
      >
        <select id="partnerMode" className={selectClass} {...register('partnerMode')}>
          {partnerModeOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </FormField>
      <PriceGuidance price={price} />
      {errors.root?.server && (
        <p role="alert" data-testid="server-error" className="rounded-md bg-red-50 p-3 text-sm text-red-900">
          {errors.root.server.message}
        </p>
      )}
      <div>
        <Button type="submit" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Submitting…' : 'Submit for review'}
        </Button>
      </div>
    </form>
  )
}
