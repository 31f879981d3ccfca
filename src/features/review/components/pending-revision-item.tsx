/**
 * One pending revision in the admins' queue: the live and the proposed values side by side, and its version;
 * approved or rejected with a note after a confirmation dialog. The decision names the version that was on screen
 * when the dialog opened, so what the admin approves is what they read: when the owner edited it since, the
 * database refuses, nothing is applied, and the item says so above the new version, which needs its own decision.
 */
import { useState } from 'react'
import { toast } from '@/lib/toast'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { ReasonDialog } from '@/components/reason-dialog'
import { formatDateTime } from '@/lib/format'
import { revisionFieldLabel, revisionFieldValue } from '@/lib/vocabulary'
import type { Revision } from '../api/revisions-query'
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

type Deciding = { decision: RevisionDecision['decision']; version: number }

export function PendingRevisionItem({ revision }: { revision: Revision }) {
  const [deciding, setDeciding] = useState<Deciding | null>(null)
  const [edited, setEdited] = useState<string | null>(null)
  const mutation = useRevisionDecisionMutation({
    onSuccess: (vars) => {
      toast.success(
        vars.decision === 'approved'
          ? `Changes to ${revision.subjectName} approved`
          : `Changes to ${revision.subjectName} rejected`,
      )
      setDeciding(null)
    },
    onEdited: (message) => {
      setEdited(message)
      setDeciding(null)
    },
  })
  const open = (decision: Deciding['decision']) => {
    setEdited(null)
    setDeciding({ decision, version: revision.version })
  }
  return (
    <li className="space-y-3 rounded-lg border p-4" data-testid="revision">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <h3 className="font-semibold">{revision.subjectName}</h3>
          <p className="text-sm text-muted-foreground">
            <Badge variant="grey">{revision.subjectType === 'campaign' ? 'Newsletter' : 'Source'}</Badge> proposed by{' '}
            {revision.ownerEmail ?? 'its owner'} on {formatDateTime(revision.createdAt)}
            <span data-testid="revision-version">
              {' '}
              · version {revision.version}
              {revision.version > 1 && <>, edited {formatDateTime(revision.updatedAt)}</>}
            </span>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            aria-label={`Approve the changes to ${revision.subjectName}`}
            onClick={() => open('approved')}
          >
            Approve
          </Button>
          <Button
            size="sm"
            variant="outline"
            aria-label={`Reject the changes to ${revision.subjectName}`}
            onClick={() => open('rejected')}
          >
            Reject
          </Button>
        </div>
      </div>
      {edited && (
        <div
          role="alert"
          className="rounded-md border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-950"
          data-testid="revision-edited"
        >
          <p className="font-semibold">{edited}</p>
          <p>Nothing was applied. Below is version {revision.version}, as the owner left it.</p>
        </div>
      )}
      <SideBySide revision={revision} />
      {deciding && (
        <ReasonDialog
          open
          onOpenChange={(isOpen) => !isOpen && setDeciding(null)}
          title={`${deciding.decision === 'approved' ? 'Approve' : 'Reject'} the changes to ${noun(revision)} “${revision.subjectName}”?`}
          description={
            deciding.decision === 'approved'
              ? 'The proposed values go live at once. The owner is emailed, with your note if you write one.'
              : 'The live version stays. The owner is emailed your reason; it is also kept in the audit log.'
          }
          confirmLabel={deciding.decision === 'approved' ? 'Approve changes' : 'Reject changes'}
          reasonRequired={deciding.decision === 'rejected'}
          pending={mutation.isPending}
          onConfirm={(note) => mutation.mutate({ id: revision.id, ...deciding, note })}
        />
      )}
    </li>
  )
}
