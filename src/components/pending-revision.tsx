/**
 * What an owner sees of their latest revision of a listed source or newsletter: "Changes waiting for review" with
 * the proposed text while an admin has not decided (the approved version stays live), or the decision with the
 * reviewer's note. Shared by the advertiser's and the publisher's screens, which each read their own revision.
 */
import { revisionFieldLabel, revisionFieldValue } from '@/lib/vocabulary'

export type OwnRevision = {
  status: string
  changes: unknown
  review_note: string | null
}

const HEADLINE: Record<string, string> = {
  pending: 'Changes waiting for review',
  approved: 'Your last changes were approved',
  rejected: 'Your last changes were not approved',
}

export function PendingRevision({ revision, testId }: { revision: OwnRevision; testId: string }) {
  const changes =
    revision.changes && typeof revision.changes === 'object' ? Object.entries(revision.changes as object) : []
  return (
    <div
      role="status"
      className={
        revision.status === 'pending'
          ? 'rounded-md border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-950'
          : 'rounded-md border p-3 text-sm'
      }
      data-testid={testId}
    >
      <p className="font-medium">{HEADLINE[revision.status] ?? revision.status}</p>
      {revision.status === 'pending' && (
        <>
          <p className="text-muted-foreground">
            Visitors still see the approved version until an admin approves these changes:
          </p>
          <dl className="mt-1 grid gap-1">
            {changes.map(([field, value]) => (
              <div key={field} className="flex flex-wrap gap-x-2">
                <dt className="font-medium">{revisionFieldLabel(field)}:</dt>
                <dd className="break-all">{revisionFieldValue(field, value == null ? null : String(value))}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
      {revision.review_note && <p className="text-muted-foreground">The reviewer's note: “{revision.review_note}”</p>}
    </div>
  )
}
