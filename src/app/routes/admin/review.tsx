/** /dashboard/admin: sources and newsletters waiting for a decision, and the latest decisions. */
import { paths } from '@/config/paths'
import { PageHeader } from '@/components/page-header'
import { ReviewQueue } from '@/features/review/components/review-queue'
import { AuditLog } from '@/features/review/components/audit-log'

export default function AdminReviewPage() {
  return (
    <>
      <PageHeader
        title="Review queue"
        description="Sources and newsletters waiting for a decision, and the latest decisions."
      />
      <div className="space-y-8">
        <ReviewQueue previewHref={paths.campaignAdminPreview} />
        <section aria-labelledby="audit-heading" className="space-y-3">
          <h2 id="audit-heading" className="text-xl font-semibold">
            Audit log
          </h2>
          <AuditLog />
        </section>
      </div>
    </>
  )
}
