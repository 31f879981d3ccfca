/**
 * Guards the signed-in areas: no user → /login (SPEC §2), remembering where they were going.
 * `allow` restricts an area to some user types; others land on their own dashboard. A user who signed in with
 * the password but still owes the TOTP code goes back to /login, which asks for it.
 */
import type { ReactNode } from 'react'
import { Navigate, Outlet, useLocation } from 'react-router-dom'
import { paths } from '@/config/paths'
import { PageSpinner } from '@/components/page-spinner'
import { useSession, type UserType } from '@/lib/session'

export const dashboardFor = (type: UserType) =>
  type === 'admin' ? paths.admin.root : type === 'publisher' ? paths.publisher.root : paths.advertiser.root

export function RequireUser({ allow, children }: { allow?: UserType[]; children?: ReactNode }) {
  const { user, isLoading, userType, needsMfa, lastEvent } = useSession()
  const location = useLocation()
  if (isLoading) return <PageSpinner />
  // Someone who just logged out is not "on their way" to this page: the next login starts at the dashboard.
  const from = lastEvent === 'SIGNED_OUT' ? undefined : { from: location.pathname + location.search }
  if (!user) return <Navigate replace to={paths.login} state={from} />
  if (needsMfa) return <Navigate replace to={paths.login} state={{ from: location.pathname + location.search }} />
  if (allow && !allow.includes(userType)) return <Navigate replace to={dashboardFor(userType)} />
  return children ?? <Outlet />
}
