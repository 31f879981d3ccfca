/** /dashboard/admin/users/:userId: one user's money, listings, sessions, and suspension. */
import { useParams } from 'react-router-dom'
import { PageHeader } from '@/components/page-header'
import { UserPage } from '@/features/users/components/user-page'

export default function AdminUserPage() {
  const { userId = '' } = useParams()
  return (
    <>
      <PageHeader
        title="User"
        description="Their money as they see it, their listings and sessions; suspend or reinstate."
      />
      <UserPage key={userId} userId={userId} />
    </>
  )
}
