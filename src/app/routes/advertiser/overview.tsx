/** Advertiser overview: the wallet, the campaigns and a way to list another newsletter. */
import { Link } from 'react-router-dom'
import { PlusIcon } from 'lucide-react'
import { paths } from '@/config/paths'
import { useSession } from '@/lib/session'
import { Button } from '@/components/ui/button'
import { WalletBalanceCard } from '@/features/wallet/components/wallet-balance-card'
import { useWalletSummaryQuery } from '@/features/wallet/api/wallet-summary-query'
import { CampaignList } from '@/features/campaigns/components/campaign-list'
import { DepositDialog } from '@/features/wallet/components/deposit-dialog'

export default function OverviewPage() {
  const { user } = useSession()
  const userId = user?.id ?? ''
  const wallet = useWalletSummaryQuery(userId)
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Overview</h1>
        <Button asChild>
          <Link to={paths.advertiser.submitNewsletter}>
            <PlusIcon aria-hidden="true" />
            List a newsletter
          </Link>
        </Button>
      </div>
      <WalletBalanceCard userId={userId} />
      <section aria-labelledby="campaigns-heading" className="space-y-3">
        <h2 id="campaigns-heading" className="text-xl font-semibold">
          Your newsletters
        </h2>
        <CampaignList
          advertiserId={userId}
          availableBalance={wallet.data?.available}
          analyticsHref={(id) => `${paths.advertiser.analytics}?newsletterId=${encodeURIComponent(id)}`}
          walletHref={paths.advertiser.wallet}
          fundAction={
            <DepositDialog
              trigger={
                <button type="button" className="font-medium underline">
                  add funds now
                </button>
              }
            />
          }
          empty={
            <div className="rounded-lg border border-dashed p-6 text-center">
              <p className="font-medium">You have not listed a newsletter yet.</p>
              <p className="mt-1 text-sm text-muted-foreground">
                List one, set a price per confirmed subscriber and a budget; influencers start sending readers once it is approved.
              </p>
              <Button asChild className="mt-4">
                <Link to={paths.advertiser.submitNewsletter}>List your first newsletter</Link>
              </Button>
            </div>
          }
        />
      </section>
    </div>
  )
}
