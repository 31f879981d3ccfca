/**
 * The admin area (/dashboard/admin/*): review queue, every live or banned source and newsletter (ban,
 * reinstate), disputes with their evidence, users, money, and the audit log. Admins only, behind a second
 * factor, in the one dashboard layout.
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
import { CatalogPanel } from '@/features/admin/components/catalog-panel'
import { AdminDisputesPanel } from '@/features/disputes/components/admin-disputes-panel'
import { DepositsPanel } from '@/features/admin/components/deposits-panel'

function CatalogPage() {
  return (
    <>
      <PageHeader
        title="Sources & newsletters"
        description="Ban anything approved that breaks the rules, or reinstate what was banned. The owner is told why."
      />
      <div className="space-y-8">
        <section aria-labelledby="catalog-sources" className="space-y-3">
          <h2 id="catalog-sources" className="text-xl font-semibold">
            Sources
          </h2>
          <CatalogPanel kind="sources" />
        </section>
        <section aria-labelledby="catalog-campaigns" className="space-y-3">
          <h2 id="catalog-campaigns" className="text-xl font-semibold">
            Newsletters
          </h2>
          <CatalogPanel kind="campaigns" />
        </section>
      </div>
    </>
  )
}

function DisputesPage() {
  return (
    <>
      <PageHeader title="Disputes" description="Flags from advertisers, with the evidence to uphold or reject them." />
      <AdminDisputesPanel />
    </>
  )
}

function AuditLogPage() {
  return (
    <>
      <PageHeader title="Audit log" description="Every admin decision: who, when, what changed and why." />
      <AuditLog />
    </>
  )
}

function ReviewPage() {
  return (
    <>
      <PageHeader title="Review queue" description="Sources and newsletters waiting for a decision, and the latest decisions." />
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
            <Route path="catalog" element={<CatalogPage />} />
            <Route path="disputes" element={<DisputesPage />} />
            <Route path="audit-log" element={<AuditLogPage />} />
            <Route path="*" element={<Navigate replace to={paths.admin.root} />} />
          </Routes>
        </DashboardShell>
      </RequireSecondFactor>
    </RequireUser>
  )
}
