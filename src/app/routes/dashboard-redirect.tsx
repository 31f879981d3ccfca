/**
 * /dashboard (SPEC §2): no user → /login; otherwise the dashboard of the user's type. The email
 * confirmation link also lands here with the new session in the URL hash: it is started first.
 */
import { Link, Navigate } from 'react-router-dom'
import { paths } from '@/config/paths'
import { useSession } from '@/lib/session'
import { PageSpinner } from '@/components/page-spinner'
import { dashboardFor } from '@/app/layouts/require-user'
import { AuthCard, FormMessage } from '@/features/auth/components/auth-card'
import { useAuthHashSession } from '@/features/auth/hooks/use-auth-hash-session'

export default function DashboardRedirectPage() {
  const link = useAuthHashSession()
  const { user, isLoading, userType } = useSession()

  if (link.status === 'error') {
    return (
      <AuthCard
        title="This link does not work"
        footer={
          <Link to={paths.login} className="font-medium text-primary hover:underline">
            Go to log in
          </Link>
        }
      >
        <FormMessage tone="error" testId="confirm-link-error">
          {link.message}. If your email is already confirmed, just log in; otherwise log in to get a new link.
        </FormMessage>
      </AuthCard>
    )
  }
  if (link.status === 'pending' || isLoading) return <PageSpinner label="Opening your dashboard…" />
  if (!user) return <Navigate replace to={paths.login} />
  return <Navigate replace to={dashboardFor(userType)} />
}
