/**
 * Both sides of a dispute for the admin, before the evidence and the decision: the advertiser's reason, the
 * publisher's answer and evidence links (or the 72 hours they still have, or that none came), and what is at stake
 * in each side's money, from the database (dispute_at_stake).
 */
import { formatCredits, formatDateTime } from '@/lib/format'
import { metrics } from '@/lib/metrics'
import { answerWindow } from '../answer-window'
import type { AdminDispute } from '../api/admin-disputes-query'
import { useDisputeAtStakeQuery } from '../api/dispute-at-stake-query'
import { EvidenceLinks } from './publisher-dispute'

function PublisherWords({ dispute }: { dispute: AdminDispute }) {
  const window = answerWindow(dispute)
  if (window.kind === 'answered')
    return (
      <>
        <p className="text-muted-foreground">Answered {formatDateTime(window.at)}</p>
        <blockquote className="border-l-4 pl-3 whitespace-pre-line">{dispute.answer}</blockquote>
        <EvidenceLinks links={dispute.answer_links ?? []} />
      </>
    )
  if (window.kind === 'waiting')
    return <p>No answer yet: the publisher can answer until {formatDateTime(window.until)}.</p>
  return <p>No answer within 72 hours (the time ended {formatDateTime(window.until)}).</p>
}

export function DisputeSides({ dispute }: { dispute: AdminDispute }) {
  const stake = useDisputeAtStakeQuery(dispute.id)
  return (
    <div className="grid gap-4 sm:grid-cols-2" data-testid="dispute-sides">
      <section className="space-y-1">
        <h4 className="font-medium">The advertiser says</h4>
        <blockquote className="border-l-4 pl-3 whitespace-pre-line">{dispute.reason}</blockquote>
      </section>
      <section className="space-y-1" data-testid="dispute-publisher-side">
        <h4 className="font-medium">The publisher says</h4>
        <PublisherWords dispute={dispute} />
      </section>
      {dispute.status === 'open' && (
        <section className="sm:col-span-2">
          <h4 className="font-medium">At stake</h4>
          {stake.isPending ? (
            <p className="text-muted-foreground">Loading…</p>
          ) : stake.isError ? (
            <p className="text-red-700">We couldn't load what is at stake: {stake.error.message}</p>
          ) : (
            <dl className="flex flex-wrap gap-x-6 gap-y-1">
              <div className="flex gap-1">
                <dt className="text-muted-foreground">Readers on hold</dt>
                <dd>
                  {stake.data.readers_on_hold} of {stake.data.readers}
                </dd>
              </div>
              <div className="flex gap-1">
                <dt className="text-muted-foreground">{metrics.disputeChargesAtStake.label}</dt>
                <dd>{formatCredits(stake.data.charged)}</dd>
              </div>
              <div className="flex gap-1">
                <dt className="text-muted-foreground">Publisher's earnings</dt>
                <dd>{formatCredits(stake.data.earnings)}</dd>
              </div>
            </dl>
          )}
        </section>
      )}
    </div>
  )
}
