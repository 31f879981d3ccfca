/** /dashboard/admin/money: marketplace totals, payout requests, deposits and every ledger row. */
import { PageHeader } from '@/components/page-header'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { TotalsPanel } from '@/features/admin/components/totals-panel'
import { TransactionsPanel } from '@/features/admin/components/transactions-panel'
import { PayoutsPanel } from '@/features/admin/components/payouts-panel'
import { DepositsPanel } from '@/features/admin/components/deposits-panel'

export default function AdminMoneyPage() {
  return (
    <>
      <PageHeader title="Money" description="Marketplace totals, payout requests, deposits and every ledger row." />
      <div className="space-y-6">
        <TotalsPanel />
        <Card>
          <CardHeader>
            <CardTitle>Payout requests</CardTitle>
          </CardHeader>
          <CardContent>
            <PayoutsPanel />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Deposits</CardTitle>
          </CardHeader>
          <CardContent>
            <DepositsPanel />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Transactions</CardTitle>
          </CardHeader>
          <CardContent>
            <TransactionsPanel />
          </CardContent>
        </Card>
      </div>
    </>
  )
}
