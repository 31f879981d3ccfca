/**
 * One dispute's two sides (dispute-sides.tsx), its evidence (counts by reason, timings, repeated visitors, email
 * collisions) and the decision form, which opens once the publisher answered or their 72 hours passed (decide_dispute
 * refuses before).
 */
import { useId, useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { SubscriberEvidenceToggle } from '@/components/subscriber-evidence'
import { Button } from '@/components/ui/button'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'
import { QueryError } from '@/components/query-error'
import { formatDateTime } from '@/lib/format'
import { reasonLabel } from '@/lib/vocabulary'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import type { AdminDispute } from '../api/admin-disputes-query'
import {
  disputeDecisionSchema,
  useDecideDisputeMutation,
  type DisputeDecisionValues,
} from '../api/decide-dispute-mutation'
import { useDisputeEvidenceQuery, type ReasonCount } from '../api/dispute-evidence-query'
import { answerWindow } from '../answer-window'
import { DisputeSides } from './dispute-sides'

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
              {reasonLabel(r.reason)}: {r.count}
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
  // The decision waiting for the admin's confirmation (it moves money and cannot be undone).
  const [confirming, setConfirming] = useState<{
    decision: 'upheld' | 'rejected'
    values: DisputeDecisionValues
  } | null>(null)
  const decide = useDecideDisputeMutation({
    onSuccess: () => {
      setConfirming(null)
      onDecided()
    },
  })
  // Two buttons, one per decision: each validates the same form, then asks to confirm that decision.
  const submit = (decision: 'upheld' | 'rejected') =>
    void form.handleSubmit((values) => setConfirming({ decision, values }))()
  const confirm = () => {
    if (!confirming) return
    const { decision, values } = confirming
    decide.mutate({
      disputeId: dispute.id,
      decision,
      note: values.note,
      banSourceId: decision === 'upheld' && values.ban ? dispute.audience_source_id : null,
    })
  }
  const sourceName = dispute.source?.name ?? 'this source'
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
  const heard = answerWindow(dispute)
  return (
    <div className="mt-4 space-y-4 border-t pt-4 text-sm" data-testid="dispute-evidence">
      <DisputeSides dispute={dispute} />
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
              <SubscriberEvidenceToggle subscriptionId={s.id} />
            </li>
          ))}
        </ul>
      </details>
      {dispute.status === 'open' && heard.kind === 'waiting' && (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3" data-testid="dispute-waiting">
          You can decide once the publisher answers, or from {formatDateTime(heard.until)} if they do not. The money in
          dispute stays on hold meanwhile.
        </p>
      )}
      {dispute.status === 'open' && heard.kind !== 'waiting' && (
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
      <Dialog open={confirming !== null} onOpenChange={(open) => !open && setConfirming(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>
              {confirming?.decision === 'upheld' ? 'Uphold this dispute and refund?' : 'Reject this dispute?'}
            </DialogTitle>
            <DialogDescription>
              {confirming?.decision === 'upheld'
                ? `The advertiser is refunded for the disputed subscribers still in screening and the publisher loses those earnings${
                    confirming.values.ban ? `; “${sourceName}” is banned` : ''
                  }. Both are emailed. This cannot be undone.`
                : 'Nothing is refunded and both sides are emailed your note. This cannot be undone.'}
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
            <Button
              type="button"
              variant={confirming?.decision === 'upheld' ? 'destructive' : 'default'}
              disabled={decide.isPending}
              onClick={confirm}
              data-testid="confirm-dispute-decision"
            >
              {decide.isPending ? 'Saving…' : confirming?.decision === 'upheld' ? 'Uphold and refund' : 'Reject'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  )
}
