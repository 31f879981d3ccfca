/**
 * One subscriber's evidence row (`subscriber_evidence`, the same for the newsletter's advertiser, the source's
 * publisher and admins): confirmed and delivered at, opens and clicks read back from the advertiser's email tool,
 * machine activity where the tool tells it apart, and what was decided about the money, when. Opened on demand.
 */
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { formatDateTime } from '@/lib/format'
import { evidenceDecision, reasonLabel, subscriptionStatus } from '@/lib/vocabulary'
import { Button } from '@/components/ui/button'

export type SubscriberEvidence = {
  status: string
  reasons: string[]
  confirmed_at: string | null
  delivered_at: string | null
  opens: number | null
  clicks: number | null
  machine_opens: number | null
  machine_clicks: number | null
  engaged: boolean | null
  decided_at: string | null
  decision: string | null
}

async function getEvidence(subscriptionId: string) {
  const { data, error } = await supabase.rpc(
    'subscriber_evidence',
    { p_subscription_id: subscriptionId },
    { get: true },
  )
  if (error) throw new Error(error.message)
  return data as unknown as SubscriberEvidence
}

const count = (n: number | null) => (n == null ? 'not reported' : n.toLocaleString('en-US'))

function machineText(e: SubscriberEvidence) {
  if (e.machine_opens == null && e.machine_clicks == null) return 'Not told apart by the email tool: only clicks count'
  return `${count(e.machine_opens)} opens, ${count(e.machine_clicks)} clicks (not counted)`
}

function engagedText(e: SubscriberEvidence) {
  if (e.engaged == null) return 'Not read back yet'
  return e.engaged ? 'Yes: opened or clicked' : 'No counted open or click'
}

export function EvidenceDetails({ evidence: e }: { evidence: SubscriberEvidence }) {
  const decision = e.decision ? evidenceDecision(e.decision).label : 'Free reader (no source)'
  const items: [string, string][] = [
    ['Status', subscriptionStatus(e.status).label],
    ['Confirmed', e.confirmed_at ? formatDateTime(e.confirmed_at) : '—'],
    ['In the email tool since', e.delivered_at ? formatDateTime(e.delivered_at) : 'Not delivered'],
    ['Opens', count(e.opens)],
    ['Clicks', count(e.clicks)],
    ['Machine activity', machineText(e)],
    ['Engaged', engagedText(e)],
    ['Decision', `${decision}${e.decided_at ? ` on ${formatDateTime(e.decided_at)}` : ''}`],
  ]
  if (e.reasons.length) items.push(['Why', e.reasons.map(reasonLabel).join('; ')])
  return (
    <dl
      className="mt-2 grid w-full min-w-56 grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-left text-xs"
      data-testid="subscriber-evidence"
    >
      {items.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-muted-foreground">{k}</dt>
          <dd className="break-words">{v}</dd>
        </div>
      ))}
    </dl>
  )
}

/** A button that opens the evidence row in place. */
export function SubscriberEvidenceToggle({ subscriptionId }: { subscriptionId: string }) {
  const [open, setOpen] = useState(false)
  const evidence = useQuery({
    queryKey: ['subscriber-evidence', subscriptionId],
    queryFn: () => getEvidence(subscriptionId),
    enabled: open,
  })
  return (
    <div className="w-full">
      <Button size="sm" variant="outline" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
        {open ? 'Hide evidence' : 'Evidence'}
      </Button>
      {open &&
        (evidence.isSuccess ? (
          <EvidenceDetails evidence={evidence.data} />
        ) : evidence.isError ? (
          <p className="mt-2 text-xs text-destructive">{evidence.error.message}</p>
        ) : (
          <p className="mt-2 text-xs text-muted-foreground">Loading…</p>
        ))}
    </div>
  )
}
