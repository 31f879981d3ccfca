/** /login: password sign-in (then the TOTP code if the account has one). Signed-in users move on. */
import { Link, Navigate, useLocation } from 'react-router-dom'
import { paths } from '@/config/paths'
import { useSession } from '@/lib/session'
import { AuthCard } from '@/features/auth/components/auth-card'
import { LoginForm } from '@/features/auth/components/login-form'

export default function LoginPage() {
  const { user, needsMfa } = useSession()
  const location = useLocation()
  const from = (location.state as { from?: string } | null)?.from
  // The session state changes once sign-in (and the code, if any) succeeds; that is when we leave.
  if (user && !needsMfa) return <Navigate replace to={from && from !== paths.login ? from : paths.dashboard} />
  return (
    <AuthCard
      title="Log in"
      description="Welcome back. Log in to manage your campaigns, sources and wallet."
      footer={
        <>
          New here?{' '}
          <Link to={paths.register} className="font-medium text-primary hover:underline">
            Create an account
          </Link>
        </>
      }
    >
      <LoginForm />
    </AuthCard>
  )
}
