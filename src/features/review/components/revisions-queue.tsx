/**
 * The admins' revisions queue: each change an owner proposed to a listed source or newsletter, the live value
 * and the proposed one side by side, approved or rejected with a note after a confirmation dialog (the owner is
 * emailed; the audit log keeps it). Below, the latest decisions.
 */
import { useState } from 'react'
import { toast } from '@/lib/toast'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { QueryError } from '@/components/query-error'
import { ReasonDialog } from '@/components/reason-dialog'
import { formatDateTime } from '@/lib/format'
import { revisionFieldLabel, revisionFieldValue } from '@/lib/vocabulary'
import { useRevisionsQuery, type Revision, type RevisionStatus } from '../api/revisions-query'
import { useRevisionDecisionMutation, type RevisionDecision } from '../api/revision-decision-mutation'

const noun = (r: Revision) => (r.subjectType === 'campaign' ? 'newsletter' : 'source')

function SideBySide({ revision }: { revision: Revision }) {
  return (
    <table className="w-full table-fixed text-sm" aria-label={`Changes to ${revision.subjectName}`}>
      <thead>
        <tr className="text-left text-muted-foreground">
          <th scope="col" className="w-28 py-1 pr-2 font-medium">
            Field
          </th>
          <th scope="col" className="py-1 pr-2 font-medium">
            Live now
          </th>
          <th scope="col" className="py-1 font-medium">
            Proposed
          </th>
        </tr>
      </thead>
      <tbody>
        {Object.keys(revision.changes).map((field) => (
          <tr key={field} className="border-t align-top" data-testid="revision-field">
            <th scope="row" className="py-1 pr-2 text-left font-medium">
              {revisionFieldLabel(field)}
            </th>
            <td className="py-1 pr-2 break-words text-muted-foreground">
              {revisionFieldValue(field, revision.current[field])}
            </td>
            <td className="py-1 break-words">{revisionFieldValue(field, revision.changes[field])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function PendingRevisionItem({ revision }: { revision: Revision }) {
  const [decision, setDecision] = useState<RevisionDecision['decision'] | null>(null)
  const mutation = useRevisionDecisionMutation({
    onSuccess: (vars) => {
      toast.success(
        vars.decision === 'approved'
          ? `Changes to ${revision.subjectName} approved`
          : `Changes to ${revision.subjectName} rejected`,
      )
      setDecision(null)
    },
  })
  return (
    <li className="space-y-3 rounded-lg border p-4" data-testid="revision">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <h3 className="font-semibold">{revision.subjectName}</h3>
          <p className="text-sm text-muted-foreground">
            <Badge variant="grey">{revision.subjectType === 'campaign' ? 'Newsletter' : 'Source'}</Badge> proposed by{' '}
            {revision.ownerEmail ?? 'its owner'} on {formatDateTime(revision.createdAt)}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            aria-label={`Approve the changes to ${revision.subjectName}`}
            onClick={() => setDecision('approved')}
          >
            Approve
          </Button>
          <Button
            size="sm"
            variant="outline"
            aria-label={`Reject the changes to ${revision.subjectName}`}
            onClick={() => setDecision('rejected')}
          >
            Reject
          </Button>
        </div>
      </div>
      <SideBySide revision={revision} />
      {decision && (
        <ReasonDialog
          open
          onOpenChange={(open) => !open && setDecision(null)}
          title={`${decision === 'approved' ? 'Approve' : 'Reject'} the changes to ${noun(revision)} “${revision.subjectName}”?`}
          description={
            decision === 'approved'
              ? 'The proposed values go live at once. The owner is emailed, with your note if you write one.'
              : 'The live version stays. The owner is emailed your reason; it is also kept in the audit log.'
          }
          confirmLabel={decision === 'approved' ? 'Approve changes' : 'Reject changes'}
          reasonRequired={decision === 'rejected'}
          pending={mutation.isPending}
          onConfirm={(note) => mutation.mutate({ id: revision.id, decision, note })}
        />
      )}
    </li>
  )
}

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
