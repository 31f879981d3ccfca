/** /dashboard/publisher/payouts: request a payout of available earnings and follow its history. */
import { useSession } from '@/lib/session'
import { PageHeader } from '@/components/page-header'
import { MyPayoutsPanel } from '@/features/payouts/components/my-payouts-panel'

export default function PublisherPayoutsPage() {
  const { user } = useSession()
  return (
    <>
      <PageHeader title="Payouts" description="Request a payout of your available earnings and follow its history." />
      <MyPayoutsPanel userId={user?.id ?? ''} />
    </>
  )
}
