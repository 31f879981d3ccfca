/**
 * Edit a newsletter's public fields. Before approval the change applies at once; after it, the database
 * keeps the approved version live and files the change as a revision for an admin, shown above the form.
 */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { toast } from '@/lib/toast'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import type { CampaignDetail } from '../api/campaign-detail-query'
import { useCampaignRevisionQuery } from '../api/campaign-revision-query'
import { useCampaignUpdateMutation } from '../api/campaign-update-mutation'
import {
  campaignEditSchema,
  newsletterFactsColumns,
  type CampaignEditInput,
  type CampaignEditValues,
} from '../campaign-schema'
import { FormField } from '@/components/form-field'
import { categoryOptions, isCategory } from '@/lib/vocabulary-catalog'
import { PendingRevision } from '@/components/pending-revision'
import { isFrequency } from '@/lib/vocabulary'
import { NewsletterFactsFields } from './newsletter-facts-fields'

export function CampaignEditForm({ campaign }: { campaign: CampaignDetail }) {
  const revision = useCampaignRevisionQuery(campaign.id)
  const form = useForm<CampaignEditInput, unknown, CampaignEditValues>({
    resolver: zodResolver(campaignEditSchema),
    defaultValues: {
      name: campaign.name,
      description: campaign.description ?? '',
      imageUrl: campaign.image_url ?? '',
      websiteUrl: campaign.website_url ?? '',
      category: campaign.category && isCategory(campaign.category) ? campaign.category : undefined,
      sampleIssueUrl: campaign.sample_issue_url ?? '',
      frequency: campaign.frequency && isFrequency(campaign.frequency) ? campaign.frequency : '',
      audienceSize: campaign.audience_size == null ? '' : String(campaign.audience_size),
      audienceLine: campaign.audience_line ?? '',
    },
  })
  const { register, handleSubmit, formState } = form
  const errors = formState.errors
  const save = useCampaignUpdateMutation({
    action: 'save the changes',
    onSuccess: () =>
      toast.success(
        campaign.approved_at ? 'Changes sent for review; the approved version stays live meanwhile' : 'Changes saved',
      ),
  })
  const onSubmit = handleSubmit(
    async (v) => {
      await save
        .mutateAsync({
          campaignId: campaign.id,
          changes: {
            name: v.name,
            description: v.description || null,
            image_url: v.imageUrl || null,
            website_url: v.websiteUrl,
            category: v.category,
            ...newsletterFactsColumns(v),
          },
        })
        .catch(() => undefined)
    },
    () => toast.error('Please fix the highlighted fields'),
  )
  const r = revision.data

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4" data-testid="campaign-edit-form">
      {r && <PendingRevision revision={r} testId="campaign-revision" />}
      <FormField id="edit-name" label="Newsletter name" error={errors.name?.message}>
        <Input id="edit-name" {...register('name')} aria-invalid={!!errors.name} />
      </FormField>
      <FormField id="edit-description" label="Description" error={errors.description?.message}>
        <Textarea id="edit-description" rows={4} {...register('description')} aria-invalid={!!errors.description} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="edit-imageUrl" label="Image URL" hint="Optional" error={errors.imageUrl?.message}>
          <Input id="edit-imageUrl" type="url" {...register('imageUrl')} aria-invalid={!!errors.imageUrl} />
        </FormField>
        <FormField id="edit-websiteUrl" label="Website URL" error={errors.websiteUrl?.message}>
          <Input id="edit-websiteUrl" type="url" {...register('websiteUrl')} aria-invalid={!!errors.websiteUrl} />
        </FormField>
      </div>
      <FormField id="edit-category" label="Category" error={errors.category?.message}>
        <select
          id="edit-category"
          className="flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base md:text-sm"
          {...register('category')}
        >
          <option value="" disabled>
            Choose a category
          </option>
          {categoryOptions.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </FormField>
      <NewsletterFactsFields
        idPrefix="edit-"
        register={(name) => register(name)}
        errors={errors}
        defaultFrequency={form.formState.defaultValues?.frequency ?? ''}
      />
      <div>
        <Button type="submit" disabled={formState.isSubmitting}>
          {campaign.approved_at ? 'Send changes for review' : 'Save changes'}
        </Button>
      </div>
    </form>
  )
}
