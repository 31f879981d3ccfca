/** /dashboard/publisher: earnings, this week's figures and the sources with their magic links. */
import { useSession } from '@/lib/session'
import { PageHeader } from '@/components/page-header'
import { OverviewPanel } from '@/features/publisher/components/overview-panel'

export default function PublisherOverviewPage() {
  const { user } = useSession()
  return (
    <>
      <PageHeader title="Overview" description="Share your magic links, follow your clicks and subscribers, get paid." />
      <OverviewPanel userId={user?.id ?? ''} />
    </>
  )
}
