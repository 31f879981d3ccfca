/**
 * /dashboard/publisher/stats: over a date range, paid subscribers and earnings per day and per source and
 * newsletter; then each reader who was not paid or was refunded, with the reason.
 */
import { useSession } from '@/lib/session'
import { PageHeader } from '@/components/page-header'
import { PublisherStatsPanel } from '@/features/analytics/components/publisher-stats-panel'
import { UnpaidReaders } from '@/features/offers/components/unpaid-readers'

export default function PublisherStatsPage() {
  const { user } = useSession()
  return (
    <>
      <PageHeader
        title="Stats"
        description="Views, clicks, confirmed subscribers and earnings per source and per newsletter."
      />
      <div className="flex flex-col gap-8">
        <PublisherStatsPanel userId={user?.id ?? ''} />
        <UnpaidReaders userId={user?.id ?? ''} />
      </div>
    </>
  )
}
