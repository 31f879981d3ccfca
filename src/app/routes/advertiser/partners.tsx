/**
 * Partners (`?newsletterId=`, PRODUCT "Partner programs"): who may promote each newsletter — open to every approved
 * source or by approval —, the applications with each source's quality, and the decisions: approve (optionally at
 * the source's own price), decline, block.
 */
import type { ReactNode } from 'react'
import { useSearchParams } from 'react-router-dom'
import { useSession } from '@/lib/session'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { QueryError } from '@/components/query-error'
import { PageHeader } from '@/components/page-header'
import { toCredits } from '@/lib/format'
import { useMyCampaignsQuery } from '@/features/campaigns/api/advertiser-campaigns-query'
import { CampaignPicker } from '@/features/campaigns/components/campaign-picker'
import { CampaignPartnerModeForm } from '@/features/campaigns/components/campaign-partner-mode-form'
import { PartnerList } from '@/features/partners/components/partner-list'

export default function PartnersPage() {
  const { user } = useSession()
  const campaigns = useMyCampaignsQuery(user?.id ?? '')
  const [params, setParams] = useSearchParams()
  const requested = params.get('newsletterId')

  let body: ReactNode
  if (campaigns.isPending) body = <Skeleton className="h-40" />
  else if (campaigns.isError)
    body = (
      <QueryError
        title="Could not load your newsletters"
        error={campaigns.error}
        onRetry={() => void campaigns.refetch()}
      />
    )
  else if (campaigns.data.length === 0)
    body = <p className="text-sm text-muted-foreground">List a newsletter first: its partners appear here.</p>
  else {
    const selected =
      campaigns.data.find((c) => c.id === requested) ??
      campaigns.data.find((c) => c.status !== 'draft') ??
      campaigns.data[0]!
    body = (
      <div className="space-y-6">
        <CampaignPicker
          campaigns={campaigns.data}
          value={selected.id}
          onChange={(id) => setParams({ newsletterId: id }, { replace: true })}
        />
        <Card>
          <CardHeader>
            <CardTitle>Who may promote {selected.name}</CardTitle>
          </CardHeader>
          <CardContent>
            <CampaignPartnerModeForm
              key={`${selected.id}-${selected.partner_mode}`}
              campaignId={selected.id}
              mode={selected.partner_mode}
            />
          </CardContent>
        </Card>
        <section className="space-y-3" aria-labelledby="partners-heading">
          <h2 id="partners-heading" className="text-lg font-semibold">
            Applications and partners
          </h2>
          <PartnerList
            key={selected.id}
            campaignId={selected.id}
            partnerMode={selected.partner_mode}
            newsletterPrice={toCredits(selected.price_per_subscriber)}
          />
        </section>
      </div>
    )
  }

  return (
    <div className="space-y-6">
      <PageHeader
        title="Partners"
        description="Choose who may send you subscribers, at what price, with each source's record in view."
      />
      {body}
    </div>
  )
}
