/** /dashboard/publisher/stats: views, clicks, subscribers and earnings per source and per newsletter. */
import { useSession } from '@/lib/session'
import { PageHeader } from '@/components/page-header'
import { StatsPanel } from '@/features/publisher/components/stats-panel'

export default function PublisherStatsPage() {
  const { user } = useSession()
  return (
    <>
      <PageHeader
        title="Stats"
        description="Views, clicks, confirmed subscribers and earnings per source and per newsletter."
      />
      <StatsPanel userId={user?.id ?? ''} />
    </>
  )
}
