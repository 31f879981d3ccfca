/**
 * Manage one newsletter (`?newsletterId=`): edit (as a revision after approval), pause or resume, price and what it
 * pays for (new subscribers only), budget, archive — in one place.
 */
import type { ReactNode } from 'react'
import { useSearchParams } from 'react-router-dom'
import { useSession } from '@/lib/session'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { QueryError } from '@/components/query-error'
import { useMyCampaignsQuery } from '@/features/campaigns/api/advertiser-campaigns-query'
import { useCampaignDetailQuery } from '@/features/campaigns/api/campaign-detail-query'
import { CampaignPicker } from '@/features/campaigns/components/campaign-picker'
import { CampaignStatusBadge } from '@/features/campaigns/components/campaign-status-badge'
import { CampaignEditForm } from '@/features/campaigns/components/campaign-edit-form'
import { CampaignBudgetForm } from '@/features/campaigns/components/campaign-budget-form'
import { CampaignPriceForm } from '@/features/campaigns/components/campaign-price-form'
import { CampaignPayRuleForm } from '@/features/campaigns/components/campaign-pay-rule-form'
import { CampaignPartnerModeForm } from '@/features/campaigns/components/campaign-partner-mode-form'
import { CampaignPauseControl } from '@/features/campaigns/components/campaign-pause-control'
import { CampaignArchiveButton } from '@/features/campaigns/components/campaign-archive-button'
import { PageHeader } from '@/components/page-header'

function ManageCampaign({ campaignId }: { campaignId: string }) {
  const detail = useCampaignDetailQuery(campaignId)
  if (detail.isPending) return <Skeleton className="h-64" />
  if (detail.isError)
    return (
      <QueryError title="Could not load this newsletter" error={detail.error} onRetry={() => void detail.refetch()} />
    )
  const c = detail.data
  const archived = c.status === 'archived'
  return (
    <div className="space-y-6">
      <CampaignStatusBadge status={c.status} />
      {c.review_note && <p className="text-sm text-muted-foreground">The reviewer's note: “{c.review_note}”</p>}
      <Card>
        <CardHeader>
          <CardTitle>Listing</CardTitle>
        </CardHeader>
        <CardContent>
          {archived ? (
            <p className="text-sm">Archived newsletters cannot be edited.</p>
          ) : (
            <CampaignEditForm key={c.id} campaign={c} />
          )}
        </CardContent>
      </Card>
      {!archived && (
        <Card>
          <CardHeader>
            <CardTitle>Pause or resume</CardTitle>
          </CardHeader>
          <CardContent>
            <CampaignPauseControl campaign={c} />
          </CardContent>
        </Card>
      )}
      {!archived && (
        <Card>
          <CardHeader>
            <CardTitle>Price</CardTitle>
          </CardHeader>
          <CardContent>
            <CampaignPriceForm key={`${c.id}-${c.price_per_subscriber}`} campaign={c} />
          </CardContent>
        </Card>
      )}
      {!archived && (
        <Card>
          <CardHeader>
            <CardTitle>What you pay for</CardTitle>
          </CardHeader>
          <CardContent>
            <CampaignPayRuleForm key={`${c.id}-${c.pay_rule}-${c.engagement_window_days}`} campaign={c} />
          </CardContent>
        </Card>
      )}
      {!archived && (
        <Card>
          <CardHeader>
            <CardTitle>Partners</CardTitle>
          </CardHeader>
          <CardContent>
            <CampaignPartnerModeForm key={`${c.id}-${c.partner_mode}`} campaignId={c.id} mode={c.partner_mode} />
          </CardContent>
        </Card>
      )}
      <Card>
        <CardHeader>
          <CardTitle>Budget</CardTitle>
        </CardHeader>
        <CardContent>
          <CampaignBudgetForm key={`${c.id}-${c.budget_total}`} campaign={c} />
        </CardContent>
      </Card>
      {!archived && (
        <Card>
          <CardHeader>
            <CardTitle>Archive</CardTitle>
          </CardHeader>
          <CardContent>
            <CampaignArchiveButton campaignId={c.id} name={c.name} />
          </CardContent>
        </Card>
      )}
    </div>
  )
}

export default function ManagePage() {
  const { user } = useSession()
  const campaigns = useMyCampaignsQuery(user?.id ?? '')
  const [params, setParams] = useSearchParams()
  let body: ReactNode
  if (campaigns.isPending) body = <Skeleton className="h-10 max-w-md" />
  else if (campaigns.isError)
    body = (
      <QueryError
        title="Could not load your newsletters"
        error={campaigns.error}
        onRetry={() => void campaigns.refetch()}
      />
    )
  else if (campaigns.data.length === 0)
    body = <p className="text-sm text-muted-foreground">You have not listed a newsletter yet.</p>
  else {
    const selected = campaigns.data.find((c) => c.id === params.get('newsletterId')) ?? campaigns.data[0]!
    body = (
      <div className="space-y-6">
        <CampaignPicker
          campaigns={campaigns.data}
          value={selected.id}
          onChange={(id) => setParams({ newsletterId: id }, { replace: true })}
        />
        <ManageCampaign key={selected.id} campaignId={selected.id} />
      </div>
    )
  }
  return (
    <>
      <PageHeader
        title="Manage newsletter"
        description="Edit a newsletter (changes to an approved one are reviewed first), raise or lower its budget, pause or archive it."
      />
      {body}
    </>
  )
}
