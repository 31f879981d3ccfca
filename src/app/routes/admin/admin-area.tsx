/**
 * The admin area (/dashboard/admin/*): review queue with the audit log, users, money. Admins only.
 * Disputes (an advertiser flags a source) are not built yet: there is no disputes table to read.
 */
import { NavLink, Navigate, Route, Routes } from 'react-router-dom'
import { paths } from '@/config/paths'
import { RequireUser } from '@/app/layouts/require-user'
import { RequireSecondFactor } from '@/app/layouts/require-second-factor'
import { cn } from '@/lib/utils'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { ReviewQueue } from '@/features/admin/components/review-queue'
import { AuditLog } from '@/features/admin/components/audit-log'
import { UsersPanel } from '@/features/admin/components/users-panel'
import { TotalsPanel } from '@/features/admin/components/totals-panel'
import { TransactionsPanel } from '@/features/admin/components/transactions-panel'
import { PayoutsPanel } from '@/features/admin/components/payouts-panel'
import { DepositsPanel } from '@/features/admin/components/deposits-panel'

const sections = [
  { to: paths.admin.root, label: 'Review queue', end: true },
  { to: `${paths.admin.root}/users`, label: 'Users', end: false },
  { to: `${paths.admin.root}/money`, label: 'Money', end: false },
]

function ReviewPage() {
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-bold">Review queue</h1>
      <ReviewQueue previewHref={paths.campaignAdminPreview} />
      <section aria-labelledby="audit-heading" className="space-y-3">
        <h2 id="audit-heading" className="text-xl font-semibold">
          Audit log
        </h2>
        <AuditLog />
      </section>
    </div>
  )
}

function UsersPage() {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">Users</h1>
      <UsersPanel />
    </div>
  )
}

function MoneyPage() {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Money</h1>
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
  )
}

export default function AdminAreaPage() {
  return (
    <RequireUser allow={['admin']}>
      <RequireSecondFactor>
        <div className="mx-auto w-full max-w-6xl px-4 py-6">
          <nav aria-label="Admin dashboard" className="mb-6 border-b">
            <ul className="flex flex-wrap gap-x-1">
              {sections.map((s) => (
                <li key={s.to}>
                  <NavLink
                    to={s.to}
                    end={s.end}
                    className={({ isActive }) =>
                      cn(
                        'inline-block border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                        isActive
                          ? 'border-primary text-foreground'
                          : 'border-transparent text-muted-foreground hover:text-foreground',
                      )
                    }
                  >
                    {s.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <Routes>
            <Route index element={<ReviewPage />} />
            <Route path="users" element={<UsersPage />} />
            <Route path="money" element={<MoneyPage />} />
            <Route path="*" element={<Navigate replace to={paths.admin.root} />} />
          </Routes>
        </div>
      </RequireSecondFactor>
    </RequireUser>
  )
}
