/** /dashboard/publisher/stats: views, clicks, subscribers and earnings per source and per newsletter. */
import { useSession } from '@/lib/session'
import { PageHeader } from '@/components/page-header'
import { PublisherStatsPanel } from '@/features/analytics/components/publisher-stats-panel'

export default function PublisherStatsPage() {
  const { user } = useSession()
  return (
    <>
      <PageHeader
        title="Stats"
        description="Views, clicks, confirmed subscribers and earnings per source and per newsletter."
      />
      <PublisherStatsPanel userId={user?.id ?? ''} />
    </>
  )
}
