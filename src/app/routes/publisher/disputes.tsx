/** /dashboard/publisher/disputes: disputes advertisers opened about the publisher's sources, and their outcome. */
import { PageHeader } from '@/components/page-header'
import { DisputesList } from '@/features/disputes/components/disputes-list'

export default function PublisherDisputesPage() {
  return (
    <>
      <PageHeader title="Disputes" description="Disputes advertisers opened about your sources, and their outcome." />
      <DisputesList side="publisher" />
    </>
  )
}
