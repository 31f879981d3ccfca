/** One dispute's evidence (counts by reason, timings, repeated visitors, email collisions) and the decision form. */
import { useId } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Button } from '@/components/ui/button'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'
import { QueryError } from '@/components/query-error'
import { formatDateTime } from '@/lib/format'
import type { AdminDispute } from '../api/admin-disputes-query'
import {
  disputeDecisionSchema,
  useDecideDisputeMutation,
  type DisputeDecisionValues,
} from '../api/decide-dispute-mutation'
import { useDisputeEvidenceQuery, type ReasonCount } from '../api/dispute-evidence-query'

const seconds = (s: number | null | undefined) =>
  s === null || s === undefined ? '—' : s < 120 ? `${Math.round(s)} s` : `${Math.round(s / 60)} min`

function Counts({ title, rows }: { title: string; rows: ReasonCount[] }) {
  return (
    <div>
      <h4 className="font-medium">{title}</h4>
      <ul className="text-muted-foreground">
        {rows.length === 0 ? (
          <li>None</li>
        ) : (
          rows.map((r) => (
            <li key={r.reason}>
              {r.reason.replace(/_/g, ' ')}: {r.count}
            </li>
          ))
        )}
      </ul>
    </div>
  )
}

export function DisputeDecision({ dispute, onDecided }: { dispute: AdminDispute; onDecided: () => void }) {
  const id = useId()
  const evidence = useDisputeEvidenceQuery(dispute.id)
  const form = useForm<DisputeDecisionValues>({
    resolver: zodResolver(disputeDecisionSchema),
    defaultValues: { note: '', ban: false },
  })
  const error = form.formState.errors.note?.message
  const decide = useDecideDisputeMutation({ onSuccess: onDecided })
  // Two submit buttons, one per decision: each validates the same form and sends its own decision.
  const submit = (decision: 'upheld' | 'rejected') =>
    void form.handleSubmit(({ note, ban }) =>
      decide.mutate({
        disputeId: dispute.id,
        decision,
        note,
        banSourceId: decision === 'upheld' && ban ? dispute.audience_source_id : null,
      }),
    )()
  if (evidence.isPending)
    return (
      <p role="status" className="mt-3 text-sm">
        Loading the evidence…
      </p>
    )
  if (evidence.isError)
    return (
      <QueryError title="Could not load the evidence" error={evidence.error} onRetry={() => void evidence.refetch()} />
    )
  const e = evidence.data
  return (
    <div className="mt-4 space-y-4 border-t pt-4 text-sm" data-testid="dispute-evidence">
      <div className="grid gap-4 sm:grid-cols-2">
        <Counts title="This source's subscribers to the advertiser, by outcome" rows={e.subscriptions_by_reason} />
        <Counts title="This source's clicks, by outcome" rows={e.clicks_by_reason} />
        <div>
          <h4 className="font-medium">Timings of the disputed subscribers</h4>
          <ul className="text-muted-foreground">
            <li>
              Median click → confirmation: {seconds(e.timings.median_click_to_confirm_seconds)} (source overall:{' '}
              {seconds(e.timings.source_median_click_to_confirm_seconds)})
            </li>
            <li>Median email → confirmation: {seconds(e.timings.median_email_to_confirm_seconds)}</li>
            <li>
              Confirmed within 10 s of the email: {e.timings.under_10_seconds} of {e.timings.flagged}
            </li>
          </ul>
        </div>
        <div>
          <h4 className="font-medium">Repeated visitors and shared inboxes</h4>
          <ul className="text-muted-foreground">
            {e.repeated_visitors.length === 0 && e.email_collisions.length === 0 && <li>None found</li>}
            {e.repeated_visitors.map((v) => (
              <li key={v.visitor}>
                Visitor {v.visitor}…: {v.subscriptions} subscriptions
              </li>
            ))}
            {e.email_collisions.map((c) => (
              <li key={c.canonical_email}>
                {c.canonical_email}: {c.subscriptions} subscriptions
              </li>
            ))}
          </ul>
        </div>
      </div>
      <details>
        <summary className="cursor-pointer font-medium">Disputed subscribers ({e.subscribers.length})</summary>
        <ul className="mt-2 space-y-1 text-muted-foreground">
          {e.subscribers.map((s) => (
            <li key={s.id}>
              {s.email} · confirmed {s.confirmed_at ? formatDateTime(s.confirmed_at) : '—'} · click → confirm{' '}
              {seconds(s.click_to_confirm_seconds)} ·{' '}
              {s.in_screening ? 'in screening' : 'screening over (not refundable)'}
            </li>
          ))}
        </ul>
      </details>
      {dispute.status === 'open' && (
        <form noValidate className="grid gap-3" onSubmit={(ev) => ev.preventDefault()}>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-note`}>Decision note (both sides read it)</Label>
            <Textarea id={`${id}-note`} maxLength={2000} {...form.register('note')} />
          </div>
          <label className="flex items-center gap-2">
            <input type="checkbox" {...form.register('ban')} />
            When upholding, also ban the source “{dispute.source?.name ?? ''}”
          </label>
          {error && (
            <p role="alert" className="text-red-700">
              {error}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <Button
              type="button"
              disabled={decide.isPending}
              onClick={() => submit('upheld')}
              data-testid="uphold-dispute"
            >
              Uphold and refund
            </Button>
            <Button type="button" variant="outline" disabled={decide.isPending} onClick={() => submit('rejected')}>
              Reject
            </Button>
          </div>
        </form>
      )}
    </div>
  )
}
