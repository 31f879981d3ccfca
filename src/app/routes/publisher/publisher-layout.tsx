/**
 * The publisher area (/dashboard/publisher/*, PRODUCT.md "Publisher dashboard"): publishers (influencers) and
 * admins, in the one dashboard layout. Its pages (overview, sources, stats, payouts, disputes) are routes of the
 * one table in router.tsx.
 */
import { Outlet } from 'react-router-dom'
import { RequireUser } from '@/app/layouts/require-user'
import { DashboardShell } from '@/app/layouts/dashboard-shell'

export default function PublisherLayoutPage() {
  return (
    <RequireUser allow={['publisher', 'admin']}>
      <DashboardShell area="publisher">
        <Outlet />
      </DashboardShell>
    </RequireUser>
  )
}
