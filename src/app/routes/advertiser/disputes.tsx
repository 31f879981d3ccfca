/** /dashboard/advertiser/disputes: flag subscribers in screening (or a whole source) and follow the outcome. */
import { OpenDisputeDialog } from '@/features/disputes/components/open-dispute-dialog'
import { DisputesList } from '@/features/disputes/components/disputes-list'

export default function AdvertiserDisputesPage() {
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Disputes</h1>
        <OpenDisputeDialog />
      </div>
      <p className="text-muted-foreground">
        Think subscribers you were charged for are not genuine? Dispute them during their 7-day screening; an admin
        weighs the evidence, and an upheld dispute refunds them.
      </p>
      <DisputesList side="advertiser" />
    </div>
  )
}
