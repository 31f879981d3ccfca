/** Overview: earnings (pending, available, paid), this week's clicks and confirmed subscribers, the sources. */
import type { ReactNode } from 'react'
import { usePublisherEarningsQuery } from '../api/publisher-earnings-query'
import { usePublisherWeekQuery } from '../api/publisher-week-query'
import { formatCredits } from '../lib/earnings'
import { SourcesPanel } from './sources-panel'

function Metric({ label, value, hint, testId }: { label: string; value: ReactNode; hint?: string; testId: string }) {
  return (
    <div className="flex flex-col gap-1 rounded-lg border bg-card p-4" data-testid={testId}>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-2xl font-semibold">{value}</dd>
      {hint && <dd className="text-xs text-muted-foreground">{hint}</dd>}
    </div>
  )
}

const show = (query: { isPending: boolean; isError: boolean }, value: () => ReactNode) =>
  query.isPending ? '…' : query.isError ? '—' : value()

export function OverviewPanel({ userId }: { userId: string }) {
  const earnings = usePublisherEarningsQuery(userId)
  const week = usePublisherWeekQuery(userId)

  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="earnings-title" className="flex flex-col gap-3">
        <h2 id="earnings-title" className="text-xl font-semibold">
          Earnings
        </h2>
        {earnings.isError && <p className="text-sm text-red-700">Could not load earnings: {earnings.error.message}</p>}
        <dl className="grid gap-3 sm:grid-cols-3">
          <Metric testId="earnings-pending" label="Pending" hint="In the 7-day screening period" value={show(earnings, () => formatCredits(earnings.data!.pending))} />
          <Metric testId="earnings-available" label="Available" hint="Ready for a payout" value={show(earnings, () => formatCredits(earnings.data!.available))} />
          <Metric testId="earnings-paid" label="Paid" value={show(earnings, () => formatCredits(earnings.data!.paid))} />
        </dl>
      </section>
      <section aria-labelledby="week-title" className="flex flex-col gap-3">
        <h2 id="week-title" className="text-xl font-semibold">
          This week
        </h2>
        {week.isError && <p className="text-sm text-red-700">Could not load this week: {week.error.message}</p>}
        <dl className="grid gap-3 sm:grid-cols-2">
          <Metric testId="week-clicks" label="Counted clicks" value={show(week, () => week.data!.clicks)} />
          <Metric testId="week-subscribers" label="Confirmed subscribers" value={show(week, () => week.data!.subscribers)} />
        </dl>
      </section>
      <SourcesPanel userId={userId} showCampaignLinks={false} />
    </div>
  )
}
