/** /dashboard/admin/disputes: advertisers' flags with their evidence, to uphold or reject. */
import { PageHeader } from '@/components/page-header'
import { AdminDisputesPanel } from '@/features/disputes/components/admin-disputes-panel'

export default function AdminDisputesPage() {
  return (
    <>
      <PageHeader title="Disputes" description="Flags from advertisers, with the evidence to uphold or reject them." />
      <AdminDisputesPanel />
    </>
  )
}
