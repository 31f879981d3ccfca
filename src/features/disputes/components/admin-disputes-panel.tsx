/** The admin's disputes: open ones first; each opens to both sides, its evidence (from the database) and the decision. */
import { useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { QueryError } from '@/components/query-error'
import { formatCredits, formatDateTime } from '@/lib/format'
import { useAdminDisputesQuery } from '../api/admin-disputes-query'
import { DisputeDecision } from './dispute-decision'
import { disputeStatus } from '@/lib/vocabulary'
import { answerWindow } from '../answer-window'
import type { AdminDispute } from '../api/admin-disputes-query'

/** Whether the admin can decide yet, in a line: the publisher answered, has until a moment, or let it pass. */
function answerLine(d: AdminDispute) {
  const window = answerWindow(d)
  if (window.kind === 'answered') return 'The publisher answered: ready to decide.'
  if (window.kind === 'waiting') return `Waiting for the publisher's answer until ${formatDateTime(window.until)}.`
  return 'The publisher did not answer within 72 hours: ready to decide.'
}

export function AdminDisputesPanel() {
  const disputes = useAdminDisputesQuery()
  const [openId, setOpenId] = useState<string | null>(null)
  if (disputes.isPending) {
    return (
      <div role="status" aria-label="Loading disputes">
        <Skeleton className="h-24" />
      </div>
    )
  }
  if (disputes.isError)
    return <QueryError title="Could not load disputes" error={disputes.error} onRetry={() => void disputes.refetch()} />
  if (disputes.data.length === 0) return <p className="text-muted-foreground">No disputes yet.</p>
  return (
    <ul className="space-y-3" aria-label="Disputes">
      {disputes.data.map((d) => {
        const count = d.subscribers[0]?.count ?? 0
        return (
          <li key={d.id} className="rounded-lg border p-4" data-testid="admin-dispute">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="space-y-1 text-sm">
                <p className="font-semibold">
                  {d.advertiser?.full_name ?? 'An advertiser'} disputes{' '}
                  {d.kind === 'source' ? 'the whole source' : `${count} subscriber${count === 1 ? '' : 's'} of`}{' '}
                  {d.source?.name ?? 'a deleted source'} ({d.publisher?.full_name ?? 'publisher without a name'})
                </p>
                <p className="text-muted-foreground">
                  Opened {formatDateTime(d.created_at)}: “{d.reason}”
                </p>
                {d.status === 'open' && <p data-testid="dispute-answer-state">{answerLine(d)}</p>}
                {d.status !== 'open' && (
                  <p>
                    {d.status === 'upheld'
                      ? `Upheld, ${formatCredits(d.refunded)} refunded for ${d.refunded_subscribers} subscriber${d.refunded_subscribers === 1 ? '' : 's'}`
                      : 'Rejected'}
                    : {d.decision_note}
                  </p>
                )}
              </div>
              <div className="flex items-center gap-2">
                <Badge variant={disputeStatus(d.status).tone}>{disputeStatus(d.status).label}</Badge>
                <Button
                  size="sm"
                  variant="outline"
                  aria-expanded={openId === d.id}
                  onClick={() => setOpenId(openId === d.id ? null : d.id)}
                >
                  {openId === d.id ? 'Hide evidence' : d.status === 'open' ? 'Review' : 'Evidence'}
                </Button>
              </div>
            </div>
            {openId === d.id && <DisputeDecision dispute={d} onDecided={() => setOpenId(null)} />}
          </li>
        )
      })}
    </ul>
  )
}
