/** The campaign's headline numbers, summed over its sources. */
import type { SourceStat } from '../api/campaign-source-stats-query'
import { formatCredits } from '@/lib/format'

export function totals(stats: SourceStat[]) {
  const sum = (pick: (s: SourceStat) => number) => stats.reduce((acc, s) => acc + pick(s), 0)
  const clicks = sum((s) => s.clicks)
  const conversions = sum((s) => s.conversions)
  return {
    views: sum((s) => s.views),
    clicks,
    conversions,
    conversionRate: clicks > 0 ? (conversions * 100) / clicks : 0,
    spend: sum((s) => s.spend),
  }
}

export function SummaryFigures({ stats }: { stats: SourceStat[] }) {
  const t = totals(stats)
  const figures = [
    { label: 'Views', value: t.views.toLocaleString('en-US') },
    { label: 'Clicks', value: t.clicks.toLocaleString('en-US') },
    { label: 'Confirmed subscribers', value: t.conversions.toLocaleString('en-US') },
    { label: 'Conversion rate', value: `${t.conversionRate.toFixed(1)}%` },
    { label: 'Spend', value: formatCredits(t.spend) },
  ]
  return (
    <dl className="grid grid-cols-2 gap-3 md:grid-cols-5" data-testid="analytics-summary">
      {figures.map((figure) => (
        <div key={figure.label} className="rounded-lg border p-3">
          <dt className="text-sm text-muted-foreground">{figure.label}</dt>
          <dd className="text-xl font-semibold tabular-nums">{figure.value}</dd>
        </div>
      ))}
    </dl>
  )
}
