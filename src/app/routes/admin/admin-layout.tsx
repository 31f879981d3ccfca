/**
 * The admin area (/dashboard/admin/*): admins only, behind a second factor, in the one dashboard layout. Its
 * pages (review queue, disputes, sources & newsletters, money, users, audit log) are routes of the one table in
 * router.tsx.
 */
import { Outlet } from 'react-router-dom'
import { RequireUser } from '@/app/layouts/require-user'
import { RequireSecondFactor } from '@/app/layouts/require-second-factor'
import { DashboardShell } from '@/app/layouts/dashboard-shell'

export default function AdminLayoutPage() {
  return (
    <RequireUser allow={['admin']}>
      <RequireSecondFactor>
        <DashboardShell area="admin">
          <Outlet />
        </DashboardShell>
      </RequireSecondFactor>
    </RequireUser>
  )
}
