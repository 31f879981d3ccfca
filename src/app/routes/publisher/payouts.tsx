/** /dashboard/publisher/payouts: set up where to be paid (Stripe), request a payout of available earnings, follow its history. */
import { useSession } from '@/lib/session'
import { PageHeader } from '@/components/page-header'
import { MyPayoutsPanel } from '@/features/payouts/components/publisher-payouts-panel'
import { PayoutSetup } from '@/features/payouts/components/payout-setup'

export default function PublisherPayoutsPage() {
  const { user } = useSession()
  return (
    <>
      <PageHeader
        title="Payouts"
        description="Set up where you are paid, request a payout of your available earnings and follow its history."
      />
      <div className="flex flex-col gap-6">
        <PayoutSetup userId={user?.id ?? ''} />
        <MyPayoutsPanel userId={user?.id ?? ''} />
      </div>
    </>
  )
}
