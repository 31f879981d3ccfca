/** /update-password: a signed-in user changes their password. */
import { useNavigate } from 'react-router-dom'
import { paths } from '@/config/paths'
import { useSession } from '@/lib/session'
import { RequireUser } from '@/app/layouts/require-user'
import { AuthCard } from '@/features/auth/components/auth-card'
import { NewPasswordForm } from '@/features/auth/components/new-password-form'

export default function UpdatePasswordPage() {
  const { user } = useSession()
  const navigate = useNavigate()
  return (
    <RequireUser>
      <AuthCard title="Change your password" description={`For ${user?.email ?? 'your account'}.`}>
        <NewPasswordForm onUpdated={() => navigate(paths.dashboard, { replace: true })} />
      </AuthCard>
    </RequireUser>
  )
}
