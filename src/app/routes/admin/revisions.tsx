/** /dashboard/admin/revisions: changes owners proposed to listed sources and newsletters, decided with a note. */
import { PageHeader } from '@/components/page-header'
import { RevisionsQueue } from '@/features/review/components/revisions-queue'

export default function AdminRevisionsPage() {
  return (
    <>
      <PageHeader
        title="Revisions"
        description="Edits to approved sources and newsletters wait here; the approved version stays live until you approve."
      />
      <RevisionsQueue />
    </>
  )
}
