/** The advertiser area: advertisers and admins only, in the one dashboard layout. */
import { Outlet } from 'react-router-dom'
import { RequireUser } from '@/app/layouts/require-user'
import { DashboardShell } from '@/app/layouts/dashboard-shell'

export default function AdvertiserLayoutPage() {
  return (
    <RequireUser allow={['advertiser', 'admin']}>
      <DashboardShell area="advertiser">
        <Outlet />
      </DashboardShell>
    </RequireUser>
  )
}
