/** /register?role=advertiser|publisher: create an account of the chosen type (SPEC §2, §6). */
import { Link, useSearchParams } from 'react-router-dom'
import { paths } from '@/config/paths'
import { AuthCard } from '@/features/auth/components/auth-card'
import { RegisterForm } from '@/features/auth/components/register-form'

export default function RegisterPage() {
  const [params] = useSearchParams()
  const role = params.get('role') === 'publisher' ? 'publisher' : 'advertiser'
  return (
    <AuthCard
      title="Create your account"
      description="Advertisers grow their newsletter; influencers earn from their audience. You can choose below."
      footer={
        <>
          Already have an account?{' '}
          <Link to={paths.login} className="font-medium text-primary hover:underline">
            Log in
          </Link>
        </>
      }
    >
      <RegisterForm key={role} initialRole={role} />
    </AuthCard>
  )
}
