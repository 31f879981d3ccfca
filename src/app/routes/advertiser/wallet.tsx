/**
 * The advertiser's wallet: balance and ledger. Deposits arrive with the payments work (hosted checkout and
 * a signed webhook); until then there is deliberately no deposit button rather than a fake one.
 */
import { useSession } from '@/lib/session'
import { PageHeader } from '@/components/page-header'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { WalletBalanceCard } from '@/features/wallet/components/wallet-balance-card'
import { TransactionsTable } from '@/features/wallet/components/transactions-table'

export default function WalletPage() {
  const { user } = useSession()
  const userId = user?.id ?? ''
  return (
    <>
      <PageHeader title="Wallet" description="Your balance and every movement of it, newest first." />
      <div className="space-y-6">
        <WalletBalanceCard userId={userId} />
        <Card>
          <CardHeader>
            <CardTitle>Transactions</CardTitle>
          </CardHeader>
          <CardContent>
            <TransactionsTable userId={userId} />
          </CardContent>
        </Card>
      </div>
    </>
  )
}
