/**
 * The admin area (/dashboard/admin/*): review queue with the audit log, users, money. Admins only, in the one
 * dashboard layout. Disputes (an advertiser flags a source) are not built yet: there is no disputes table to read.
 */
import { Navigate, Route, Routes } from 'react-router-dom'
import { paths } from '@/config/paths'
import { RequireUser } from '@/app/layouts/require-user'
import { RequireSecondFactor } from '@/app/layouts/require-second-factor'
import { DashboardShell } from '@/app/layouts/dashboard-shell'
import { PageHeader } from '@/components/page-header'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { ReviewQueue } from '@/features/admin/components/review-queue'
import { AuditLog } from '@/features/admin/components/audit-log'
import { UsersPanel } from '@/features/admin/components/users-panel'
import { TotalsPanel } from '@/features/admin/components/totals-panel'
import { TransactionsPanel } from '@/features/admin/components/transactions-panel'
import { PayoutsPanel } from '@/features/admin/components/payouts-panel'
import { DepositsPanel } from '@/features/admin/components/deposits-panel'

function ReviewPage() {
  return (
    <>
      <PageHeader
        title="Review queue"
        description="Sources and newsletters waiting for a decision, and every decision made."
      />
      <div className="space-y-8">
        <ReviewQueue previewHref={paths.campaignAdminPreview} />
        <section aria-labelledby="audit-heading" className="space-y-3">
          <h2 id="audit-heading" className="text-xl font-semibold">
            Audit log
          </h2>
          <AuditLog />
        </section>
      </div>
    </>
  )
}

function UsersPage() {
  return (
    <>
      <PageHeader title="Users" description="Find a user by email or name and change their type, with a reason." />
      <UsersPanel />
    </>
  )
}

function MoneyPage() {
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

export default function AdminAreaPage() {
  return (
    <RequireUser allow={['admin']}>
      <RequireSecondFactor>
        <DashboardShell area="admin">
          <Routes>
            <Route index element={<ReviewPage />} />
            <Route path="users" element={<UsersPage />} />
            <Route path="money" element={<MoneyPage />} />
            <Route path="*" element={<Navigate replace to={paths.admin.root} />} />
          </Routes>
        </DashboardShell>
      </RequireSecondFactor>
    </RequireUser>
  )
}
