/** /dashboard/admin/users: find a user and change their type, with a reason. */
import { PageHeader } from '@/components/page-header'
import { UsersPanel } from '@/features/users/components/users-panel'

export default function AdminUsersPage() {
  return (
    <>
      <PageHeader title="Users" description="Find a user by email or name and change their type, with a reason." />
      <UsersPanel />
    </>
  )
}
