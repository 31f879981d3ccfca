/**
 * One dispute about the publisher's source, as the publisher sees it: what the advertiser says, what is at stake (from
 * the database), the readers, their answer (or the form, within the 72 hours) and the decision with the admin's note.
 */
import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { Badge } from '@/components/ui/badge'
import { Skeleton } from '@/components/ui/skeleton'
import { Metric } from '@/components/metric'
import { PageHeader } from '@/components/page-header'
import { QueryError } from '@/components/query-error'
import { paths } from '@/config/paths'
import { formatCredits, formatDateTime } from '@/lib/format'
import { metrics } from '@/lib/metrics'
import { disputeStatus } from '@/lib/vocabulary'
import { answerWindow } from '../answer-window'
import { usePublisherDisputeQuery, type PublisherDispute } from '../api/publisher-disputes-query'
import { DisputeAnswerForm } from './dispute-answer-form'
import { DisputeReadersTable } from './dispute-readers-table'
import { publisherOutcome } from './publisher-disputes-table'

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="flex flex-col gap-3 rounded-lg border bg-card p-4" data-testid={testId}>
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  )
}

export function EvidenceLinks({ links }: { links: string[] }) {
  if (links.length === 0) return null
  return (
    <ul className="flex flex-col gap-1 text-sm" aria-label="Evidence links">
      {links.map((link) => (
        <li key={link} className="break-all">
          <a href={link} target="_blank" rel="noopener noreferrer nofollow" className="text-primary underline">
            {link}
          </a>
        </li>
      ))}
    </ul>
  )
}

function YourAnswer({ dispute }: { dispute: PublisherDispute }) {
  const window = answerWindow(dispute)
  if (window.kind === 'answered')
    return (
      <div className="flex flex-col gap-2" data-testid="dispute-answer">
        <p className="text-sm text-muted-foreground">Sent {formatDateTime(window.at)}</p>
        <blockquote className="border-l-4 pl-3 whitespace-pre-line">{dispute.answer}</blockquote>
        <EvidenceLinks links={dispute.answer_links ?? []} />
      </div>
    )
  if (window.kind === 'waiting') return <DisputeAnswerForm disputeId={dispute.id} until={window.until} />
  return (
    <p className="text-sm">
      You did not answer within the 72 hours (until {formatDateTime(window.until)}).{' '}
      {dispute.status === 'open' ? 'An admin decides with what is on file.' : ''}
    </p>
  )
}

export function PublisherDisputeView({ disputeId }: { disputeId: string }) {
  const query = usePublisherDisputeQuery(disputeId)
  if (query.isPending)
    return (
      <div role="status" aria-label="Loading the dispute">
        <Skeleton className="h-40" />
      </div>
    )
  if (query.isError)
    return (
      <QueryError
        title="We couldn't load this dispute. Try again."
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    )
  const d = query.data
  if (!d)
    return (
      <>
        <PageHeader title="Dispute not found" />
        <p className="text-sm">
          No dispute about your sources has this address.{' '}
          <Link to={paths.publisher.disputes} className="text-primary underline">
            See your disputes
          </Link>
        </p>
      </>
    )
  const open = d.status === 'open'
  return (
    <>
      <PageHeader
        title={`Dispute about ${d.source_name}`}
        documentTitle={`Dispute about ${d.source_name}`}
        description={`Opened ${formatDateTime(d.created_at)}${d.newsletters ? ` · ${d.newsletters}` : ''}`}
        actions={<Badge variant={disputeStatus(d.status).tone}>{disputeStatus(d.status).label}</Badge>}
      />
      <div className="flex flex-col gap-4">
        <dl className="grid gap-3 sm:grid-cols-3">
          <Metric label="Readers in dispute" value={d.readers} testId="dispute-readers-count" />
          {open ? (
            <Metric
              label={metrics.disputeEarningsAtStake.label}
              value={formatCredits(d.earnings_at_stake)}
              hint="Held, not lost, until an admin decides."
              testId="dispute-earnings-at-stake"
            />
          ) : (
            <Metric
              label={metrics.disputeEarningsCancelled.label}
              value={formatCredits(d.earnings_cancelled)}
              testId="dispute-earnings-cancelled"
            />
          )}
          <Metric label="Answer by" value={formatDateTime(d.answer_due_at)} testId="dispute-answer-due" />
        </dl>
        <Section title="What the advertiser says">
          <blockquote className="border-l-4 pl-3 whitespace-pre-line" data-testid="dispute-reason">
            {d.reason}
          </blockquote>
          <p className="text-sm text-muted-foreground">
            {d.kind === 'source'
              ? 'The advertiser disputes your source as a whole: every reader it brought them still in screening.'
              : 'The advertiser disputes the readers below.'}
          </p>
        </Section>
        <Section title="Your answer" testId="your-answer">
          <YourAnswer dispute={d} />
        </Section>
        {!open && (
          <Section title="Decision" testId="dispute-decision">
            <p data-testid="dispute-outcome">
              {disputeStatus(d.status).label} {d.decided_at ? formatDateTime(d.decided_at) : ''}: {publisherOutcome(d)}
            </p>
            <p>Admin’s note: {d.decision_note}</p>
          </Section>
        )}
        <Section title="Readers">
          <DisputeReadersTable disputeId={d.id} total={d.readers} />
        </Section>
      </div>
    </>
  )
}
