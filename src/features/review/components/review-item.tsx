/** One source or campaign in the review queue, with its decisions. */
import { useState, type ReactNode } from 'react'
import { toast } from '@/lib/toast'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { useReviewDecisionMutation, type ReviewSubject } from '../api/review-decision-mutation'
import { ReasonDialog } from '@/components/reason-dialog'
import { campaignStatus } from '@/lib/vocabulary'
import { sourceStatus } from '@/lib/vocabulary-catalog'

export type Decision = { status: string; label: string; reasonRequired: boolean; destructive?: boolean }

type ReviewItemProps = {
  subject: ReviewSubject
  id: string
  name: string
  status: string
  decisions: Decision[]
  children: ReactNode
}

export function ReviewItem({ subject, id, name, status, decisions, children }: ReviewItemProps) {
  const [decision, setDecision] = useState<Decision | null>(null)
  // The same words as the owner's and the catalogue's badges (lib/vocabulary), never the raw status.
  const statusWord = subject === 'source' ? sourceStatus : campaignStatus
  const mutation = useReviewDecisionMutation({
    onSuccess: (vars) => {
      toast.success(`${name}: ${statusWord(vars.status).label}`)
      setDecision(null)
    },
  })
  const noun = subject === 'source' ? 'source' : 'newsletter'
  return (
    <li className="rounded-lg border p-4" data-testid={`review-${subject}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <h3 className="font-semibold">{name}</h3>
          <Badge variant={statusWord(status).tone}>{statusWord(status).label}</Badge>
          <div className="text-sm text-muted-foreground">{children}</div>
        </div>
        <div className="flex flex-wrap gap-2">
          {decisions.map((d) => (
            <Button
              key={d.status}
              size="sm"
              variant={d.destructive ? 'destructive' : d.status === 'rejected' ? 'outline' : 'default'}
              aria-label={`${d.label} ${name}`}
              onClick={() => setDecision(d)}
            >
              {d.label}
            </Button>
          ))}
        </div>
      </div>
      {decision && (
        <ReasonDialog
          open
          onOpenChange={(open) => !open && setDecision(null)}
          title={`${decision.label} ${noun} “${name}”?`}
          description={
            decision.reasonRequired
              ? `The owner sees your reason; it is also kept in the audit log.`
              : `The reason is kept in the audit log.`
          }
          confirmLabel={decision.label}
          reasonRequired={decision.reasonRequired}
          destructive={decision.destructive}
          pending={mutation.isPending}
          onConfirm={(reason) => mutation.mutate({ subject, id, status: decision.status, reason })}
        />
      )}
    </li>
  )
}
