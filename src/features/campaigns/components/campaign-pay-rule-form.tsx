/**
 * What a newsletter pays for (PRODUCT "Pay for readers who read"): every confirmed reader after the 7-day hold, or
 * only readers who open or click one of its emails within 7–30 days, as read from the advertiser's own email tool.
 * "Engaged" needs a connected tool: without one the choice is shown disabled with the reason, and the database
 * refuses it too. A change applies to new subscribers only.
 */
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Link } from 'react-router-dom'
import { paths } from '@/config/paths'
import { toast } from '@/lib/toast'
import { payRuleLabel } from '@/lib/vocabulary'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import type { CampaignDetail } from '../api/campaign-detail-query'
import { useCampaignEspConnectedQuery } from '../api/campaign-esp-connected-query'
import { useCampaignUpdateMutation } from '../api/campaign-update-mutation'
import { campaignPayRuleSchema, type CampaignPayRuleValues } from '../campaign-schema'

export function CampaignPayRuleForm({ campaign }: { campaign: CampaignDetail }) {
  const connected = useCampaignEspConnectedQuery(campaign.id)
  const form = useForm<CampaignPayRuleValues>({
    resolver: zodResolver(campaignPayRuleSchema),
    defaultValues: {
      payRule: campaign.pay_rule === 'engaged' ? 'engaged' : 'confirmed',
      engagementWindowDays: campaign.engagement_window_days,
    },
  })
  const rule = useWatch({ control: form.control, name: 'payRule' })
  const windowError = form.formState.errors.engagementWindowDays?.message
  const ruleError = form.formState.errors.payRule?.message
  const save = useCampaignUpdateMutation({
    action: 'change what you pay for',
    onSuccess: () => toast.success('Saved: it applies to new subscribers'),
    onError: (e) => {
      form.setError('payRule', { message: e.message })
      toast.error(`Failed to change what you pay for: ${e.message}`)
    },
  })
  const noTool = connected.isSuccess && !connected.data
  const onSubmit = form.handleSubmit(async ({ payRule, engagementWindowDays }) => {
    await save
      .mutateAsync({
        campaignId: campaign.id,
        changes: { pay_rule: payRule, engagement_window_days: engagementWindowDays },
      })
      .catch(() => undefined)
  })
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-3" data-testid="campaign-pay-rule-form">
      <p className="text-sm text-muted-foreground">
        Now: {payRuleLabel(campaign.pay_rule, campaign.engagement_window_days)}. A change applies to new subscribers;
        publishers see the rule on every offer.
      </p>
      <fieldset className="grid gap-2" aria-describedby={ruleError ? 'pay-rule-error' : undefined}>
        <legend className="sr-only">What you pay for</legend>
        <label className="flex items-start gap-2 rounded-md border p-3 text-sm">
          <input type="radio" value="confirmed" className="mt-1" {...form.register('payRule')} />
          <span>
            <span className="font-medium">Every confirmed reader</span>
            <span className="block text-muted-foreground">
              A reader who confirms by email is charged after a 7-day hold.
            </span>
          </span>
        </label>
        <label className="flex items-start gap-2 rounded-md border p-3 text-sm">
          <input
            type="radio"
            value="engaged"
            className="mt-1"
            disabled={noTool && campaign.pay_rule !== 'engaged'}
            {...form.register('payRule')}
          />
          <span>
            <span className="font-medium">Only readers who open or click</span>
            <span className="block text-muted-foreground">
              The hold lasts the window below. If the reader opens or clicks one of your emails in that time, you are
              charged; if not, nothing is charged and the publisher is not paid. Opens by privacy proxies and clicks by
              link scanners do not count; where your email tool cannot tell them apart, only clicks count.
            </span>
            {noTool && (
              <span className="mt-1 block" data-testid="pay-rule-needs-tool">
                Needs your email tool: Growletter reads opens and clicks from it.{' '}
                <Link className="underline" to={`${paths.advertiser.subscribers}?newsletterId=${campaign.id}`}>
                  Connect it on the Subscribers page
                </Link>
                .
              </span>
            )}
          </span>
        </label>
      </fieldset>
      {ruleError && (
        <p id="pay-rule-error" className="text-sm text-destructive" role="alert">
          {ruleError}
        </p>
      )}
      {rule === 'engaged' && (
        <FormField
          id="engagement-window-days"
          label="Engagement window (days)"
          hint="7 to 30 days from the confirmation"
          error={windowError}
        >
          <Input
            id="engagement-window-days"
            type="number"
            inputMode="numeric"
            min={7}
            max={30}
            step={1}
            {...form.register('engagementWindowDays', { valueAsNumber: true })}
          />
        </FormField>
      )}
      <div>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          Save what you pay for
        </Button>
      </div>
    </form>
  )
}
