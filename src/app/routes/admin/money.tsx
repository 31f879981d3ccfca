/**
 * /dashboard/admin/money: marketplace totals, payout requests, their reconciliation with Stripe's transfers, deposits
 * and every ledger row.
 */
import { PageHeader } from '@/components/page-header'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { MarketplaceTotalsPanel } from '@/features/wallet/components/marketplace-totals-panel'
import { AllTransactionsPanel } from '@/features/wallet/components/admin-transactions-panel'
import { AllPayoutsPanel } from '@/features/payouts/components/admin-payouts-panel'
import { PayoutReconciliation } from '@/features/payouts/components/payout-reconciliation'
import { AllDepositsPanel } from '@/features/wallet/components/admin-deposits-panel'

export default function AdminMoneyPage() {
  return (
    <>
      <PageHeader
        title="Money"
        description="Marketplace totals, payout requests and their reconciliation with Stripe, deposits and every ledger row."
      />
      <div className="space-y-6">
        <MarketplaceTotalsPanel />
        <Card>
          <CardHeader>
            <CardTitle>Payout requests</CardTitle>
          </CardHeader>
          <CardContent>
            <AllPayoutsPanel />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Reconcile with Stripe</CardTitle>
          </CardHeader>
          <CardContent>
            <PayoutReconciliation />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Deposits</CardTitle>
          </CardHeader>
          <CardContent>
            <AllDepositsPanel />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Transactions</CardTitle>
          </CardHeader>
          <CardContent>
            <AllTransactionsPanel />
          </CardContent>
        </Card>
      </div>
    </>
  )
}
