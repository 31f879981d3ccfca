/** /dashboard/publisher/disputes: disputes advertisers opened about the publisher's sources, to answer and follow. */
import { PageHeader } from '@/components/page-header'
import { PublisherDisputesTable } from '@/features/disputes/components/publisher-disputes-table'

export default function PublisherDisputesPage() {
  return (
    <>
      <PageHeader
        title="Disputes"
        description="When an advertiser disputes readers of your sources, you have 72 hours to answer with your side and evidence; an admin reads both before deciding."
      />
      <PublisherDisputesTable />
    </>
  )
}
