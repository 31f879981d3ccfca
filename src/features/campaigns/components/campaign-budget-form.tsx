/** Raise (or lower, down to what is committed) a newsletter's budget; spent, on hold and reserved are shown. */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { toast } from '@/lib/toast'
import { formatCredits, toCredits } from '@/lib/format'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import type { CampaignDetail } from '../api/campaign-detail-query'
import { useCampaignUpdateMutation } from '../api/campaign-update-mutation'
import { campaignBudgetSchema } from '../campaign-schema'
import { FormField } from '@/components/form-field'

export function CampaignBudgetForm({ campaign }: { campaign: CampaignDetail }) {
  const committed = toCredits(campaign.budget_spent) + toCredits(campaign.budget_reserved)
  const schema = campaignBudgetSchema(committed)
  const form = useForm<{ budgetTotal: number }>({
    resolver: zodResolver(schema),
    defaultValues: { budgetTotal: toCredits(campaign.budget_total) },
  })
  const error = form.formState.errors.budgetTotal?.message
  const save = useCampaignUpdateMutation({
    action: 'change the budget',
    onSuccess: () => toast.success('Budget updated'),
    onError: (e) => {
      form.setError('budgetTotal', { message: e.message })
      toast.error(`Failed to change the budget: ${e.message}`)
    },
  })
  const onSubmit = form.handleSubmit(async ({ budgetTotal }) => {
    await save.mutateAsync({ campaignId: campaign.id, changes: { budget_total: budgetTotal } }).catch(() => undefined)
  })
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-3" data-testid="campaign-budget-form">
      <p className="text-sm text-muted-foreground">
        Budget {formatCredits(campaign.budget_total)} · spent or on hold {formatCredits(campaign.budget_spent)} ·
        reserved {formatCredits(campaign.budget_reserved)} ({campaign.reservations_open} open)
      </p>
      <FormField
        id="budget-total"
        label="New budget (credits)"
        hint={`At least ${committed.toFixed(2)} credits`}
        error={error}
      >
        <Input
          id="budget-total"
          type="number"
          inputMode="decimal"
          step="0.01"
          min={committed}
          {...form.register('budgetTotal', { valueAsNumber: true })}
          aria-invalid={!!error}
        />
      </FormField>
      <div>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          Save budget
        </Button>
      </div>
    </form>
  )
}
