/** /dashboard/publisher/sources: the publisher's audience sources, their magic links, and new ones for review. */
import { useSession } from '@/lib/session'
import { PageHeader } from '@/components/page-header'
import { MySourcesPanel } from '@/features/audiences/components/publisher-sources-panel'

export default function PublisherSourcesPage() {
  const { user } = useSession()
  return (
    <>
      <PageHeader title="Sources" description="Each approved source has a magic link; new sources wait for review." />
      <MySourcesPanel userId={user?.id ?? ''} />
    </>
  )
}
