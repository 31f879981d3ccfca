/**
 * The advertiser's wallet: deposits in progress, balance, the deposit dialog and the ledger. After a
 * payment return the deposit it names is followed until the webhook credits it.
 */
import { useLocation } from 'react-router-dom'
import { PlusIcon } from 'lucide-react'
import { useSession } from '@/lib/session'
import { Button } from '@/components/ui/button'
import { PageHeader } from '@/components/page-header'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { paymentCanceledSessionId, paymentReturnSessionId } from '@/app/layouts/payment-return-toast'
import { WalletBalanceCard } from '@/features/wallet/components/wallet-balance-card'
import { TransactionsTable } from '@/features/wallet/components/transactions-table'
import { DepositDialog } from '@/features/wallet/components/deposit-dialog'
import { DepositStatus } from '@/features/wallet/components/deposit-status'

export default function WalletPage() {
  const { user } = useSession()
  const location = useLocation()
  const userId = user?.id ?? ''
  return (
    <>
      <PageHeader
        title="Wallet"
        description="Your balance, deposits and every movement of your credits."
        actions={
          <DepositDialog
            trigger={
              <Button data-testid="deposit-button">
                <PlusIcon aria-hidden="true" />
                Add funds
              </Button>
            }
          />
        }
      />
      <div className="space-y-6">
        <DepositStatus
          userId={userId}
          watch={paymentReturnSessionId(location.state)}
          canceled={paymentCanceledSessionId(location.state)}
        />
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
