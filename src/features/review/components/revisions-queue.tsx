/**
 * The admins' revisions queue: each change an owner proposed to a listed source or newsletter, the live value
 * and the proposed one side by side, approved or rejected with a note after a confirmation dialog (the owner is
 * emailed; the audit log keeps it; pending-revision-item.tsx). Below, the latest decisions.
 */
import { Skeleton } from '@/components/ui/skeleton'
import { QueryError } from '@/components/query-error'
import { formatDateTime } from '@/lib/format'
import { revisionFieldLabel } from '@/lib/vocabulary'
import { useRevisionsQuery, type RevisionStatus } from '../api/revisions-query'
import { PendingRevisionItem } from './pending-revision-item'

function DecidedList({ status }: { status: Exclude<RevisionStatus, 'pending'> }) {
  const query = useRevisionsQuery(status)
  if (query.isPending) return <Skeleton className="h-10" />
  if (query.isError)
    return (
      <QueryError title="Could not load decided revisions" error={query.error} onRetry={() => void query.refetch()} />
    )
  if (query.data.length === 0) return <p className="text-sm text-muted-foreground">None yet.</p>
  return (
    <ul className="space-y-2 text-sm">
      {query.data.slice(0, 20).map((r) => (
        <li key={r.id} className="rounded-md border p-2" data-testid={`revision-${status}`}>
          <span className="font-medium">{r.subjectName}</span>:{' '}
          {Object.keys(r.changes).map(revisionFieldLabel).join(', ')}
          {r.decidedAt && <span className="text-muted-foreground"> · {formatDateTime(r.decidedAt)}</span>}
          {r.reviewNote && <span className="block text-muted-foreground">Note: “{r.reviewNote}”</span>}
        </li>
      ))}
    </ul>
  )
}

export function RevisionsQueue() {
  const pending = useRevisionsQuery('pending')
  return (
    <div className="space-y-8">
      <section aria-labelledby="revisions-pending" className="space-y-3">
        <h2 id="revisions-pending" className="text-xl font-semibold">
          Waiting for a decision
        </h2>
        {pending.isPending ? (
          <div role="status" aria-label="Loading revisions" className="space-y-2">
            <Skeleton className="h-24" />
            <Skeleton className="h-24" />
          </div>
        ) : pending.isError ? (
          <QueryError
            title="Could not load the revisions"
            error={pending.error}
            onRetry={() => void pending.refetch()}
          />
        ) : pending.data.length === 0 ? (
          <p className="text-muted-foreground" data-testid="revisions-empty">
            No changes are waiting. When an owner edits a listed source or newsletter, the change appears here before
            visitors see it.
          </p>
        ) : (
          <ul className="space-y-3">
            {pending.data.map((r) => (
              <PendingRevisionItem key={r.id} revision={r} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="revisions-approved" className="space-y-3">
        <h2 id="revisions-approved" className="text-lg font-semibold">
          Recently approved
        </h2>
        <DecidedList status="approved" />
      </section>
      <section aria-labelledby="revisions-rejected" className="space-y-3">
        <h2 id="revisions-rejected" className="text-lg font-semibold">
          Recently rejected
        </h2>
        <DecidedList status="rejected" />
      </section>
    </div>
  )
}
