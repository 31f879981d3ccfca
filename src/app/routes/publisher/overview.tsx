/** /dashboard/publisher: earnings, this week's figures and the sources with their magic links. */
import { useSession } from '@/lib/session'
import { PageHeader } from '@/components/page-header'
import { EarningsSummary } from '@/features/payouts/components/earnings-summary'
import { PublisherWeekSummary } from '@/features/analytics/components/publisher-week-summary'
import { MySourcesPanel } from '@/features/audiences/components/publisher-sources-panel'
import { PartnerNotice } from '@/features/offers/components/partner-notice'

export default function PublisherOverviewPage() {
  const { user } = useSession()
  const userId = user?.id ?? ''
  return (
    <>
      <PageHeader
        title="Overview"
        description="Share your magic links, follow your clicks and subscribers, get paid."
      />
      <div className="flex flex-col gap-8">
        <PartnerNotice userId={userId} />
        <EarningsSummary userId={userId} />
        <PublisherWeekSummary userId={userId} />
        <MySourcesPanel userId={userId} showCampaignLinks={false} />
      </div>
    </>
  )
}
