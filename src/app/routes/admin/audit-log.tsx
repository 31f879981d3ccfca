/** /dashboard/admin/audit-log: every admin decision, who made it and why. */
import { PageHeader } from '@/components/page-header'
import { AuditLog } from '@/features/review/components/audit-log'

export default function AdminAuditLogPage() {
  return (
    <>
      <PageHeader title="Audit log" description="Every admin decision: who, when, what changed and why." />
      <AuditLog />
    </>
  )
}
