/** /dashboard/advertiser/disputes: flag subscribers in screening (or a whole source) and follow the outcome. */
import { PageHeader } from '@/components/page-header'
import { OpenDisputeDialog } from '@/features/disputes/components/open-dispute-dialog'
import { DisputesList } from '@/features/disputes/components/disputes-list'

export default function AdvertiserDisputesPage() {
  return (
    <>
      <PageHeader
        title="Disputes"
        description="Think subscribers you were charged for are not genuine? Dispute them during their 7-day screening; the publisher has 72 hours to answer, an admin weighs both sides, and an upheld dispute refunds them."
        actions={<OpenDisputeDialog />}
      />
      <DisputesList />
    </>
  )
}
