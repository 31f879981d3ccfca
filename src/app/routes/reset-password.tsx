/**
 * /reset-password: where the reset email's link lands, with a recovery session in the URL hash (or an
 * error such as an expired link). Once the session is started the user chooses a new password.
 */
import { Link, useNavigate } from 'react-router-dom'
import { paths } from '@/config/paths'
import { useSession } from '@/lib/session'
import { PageSpinner } from '@/components/page-spinner'
import { AuthCard, FormMessage } from '@/features/auth/components/auth-card'
import { NewPasswordForm } from '@/features/auth/components/new-password-form'
import { useAuthHashSession } from '@/features/auth/hooks/use-auth-hash-session'

export default function ResetPasswordPage() {
  const link = useAuthHashSession()
  const { user, isLoading } = useSession()
  const navigate = useNavigate()
  const footer = (
    <Link to={paths.forgotPassword} className="font-medium text-primary hover:underline">
      Send a new reset link
    </Link>
  )

  if (link.status === 'error') {
    return (
      <AuthCard title="This link does not work" footer={footer}>
        <FormMessage tone="error" testId="reset-link-error">
          {link.message}. Reset links work once and expire after an hour: ask for a new one.
        </FormMessage>
      </AuthCard>
    )
  }
  if (link.status === 'pending' || isLoading) return <PageSpinner label="Opening your reset link…" />
  if (!user) {
    return (
      <AuthCard title="Choose a new password" footer={footer}>
        <FormMessage tone="info">Open the link from the password reset email to choose a new password.</FormMessage>
      </AuthCard>
    )
  }
  return (
    <AuthCard title="Choose a new password" description={`For ${user.email ?? 'your account'}.`}>
      <NewPasswordForm onUpdated={() => navigate(paths.dashboard, { replace: true })} />
    </AuthCard>
  )
}
