/** Analytics of one newsletter, chosen by `?newsletterId=` or the picker (the most recent active newsletter otherwise). */
import type { ReactNode } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import { paths } from '@/config/paths'
import { useSession } from '@/lib/session'
import { Skeleton } from '@/components/ui/skeleton'
import { Button } from '@/components/ui/button'
import { useMyCampaignsQuery } from '@/features/campaigns/api/advertiser-campaigns-query'
import { CampaignPicker } from '@/features/campaigns/components/campaign-picker'
import { CampaignStatusBadge } from '@/features/campaigns/components/campaign-status-badge'
import { PageHeader } from '@/components/page-header'
import { QueryError } from '@/components/query-error'
import { CampaignAnalytics } from '@/features/analytics/components/campaign-analytics'
import { useDefaultCampaignQuery } from '@/features/analytics/api/default-campaign-query'

export default function AnalyticsPage() {
  const { user } = useSession()
  const campaigns = useMyCampaignsQuery(user?.id ?? '')
  const [params, setParams] = useSearchParams()
  const requested = params.get('newsletterId')
  const fallback = useDefaultCampaignQuery(user?.id ?? '', !requested)

  let body: ReactNode
  if (campaigns.isPending || (!requested && fallback.isPending)) {
    body = (
      <div role="status" aria-label="Loading newsletters">
        <Skeleton className="h-10 max-w-md" />
      </div>
    )
  } else if (campaigns.isError) {
    body = (
      <QueryError
        title="Could not load your newsletters"
        error={campaigns.error}
        onRetry={() => void campaigns.refetch()}
      />
    )
  } else if (campaigns.data.length === 0) {
    body = (
      <div className="rounded-lg border border-dashed p-6 text-center">
        <p className="font-medium">No newsletters to analyse yet.</p>
        <Button asChild className="mt-4">
          <Link to={paths.advertiser.submitNewsletter}>List a newsletter</Link>
        </Button>
      </div>
    )
  } else {
    const wanted = requested ?? fallback.data
    const selected = campaigns.data.find((c) => c.id === wanted) ?? (requested ? null : campaigns.data[0])
    body = (
      <div className="space-y-6">
        <div className="flex flex-wrap items-end gap-3">
          <CampaignPicker
            campaigns={campaigns.data}
            value={selected?.id ?? null}
            onChange={(id) => setParams({ newsletterId: id }, { replace: true })}
          />
          {selected && <CampaignStatusBadge status={selected.status} />}
        </div>
        {selected ? (
          <CampaignAnalytics key={selected.id} campaignId={selected.id} />
        ) : (
          <p role="alert" className="text-sm">
            This newsletter was not found among yours. Choose one above.
          </p>
        )}
      </div>
    )
  }

  const selectedName = campaigns.data?.find((c) => c.id === requested)?.name
  return (
    <>
      <PageHeader
        title="Analytics"
        description="Views, clicks, confirmed subscribers and spend of one newsletter, per source and per day."
        documentTitle={selectedName ? `${selectedName} · Analytics · Advertiser` : undefined}
      />
      {body}
    </>
  )
}
