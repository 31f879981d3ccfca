/** The campaign's headline numbers over the range, as the database summed them (figure_totals). */
import type { FigureTotals } from '../api/figure-totals-query'
import { formatCredits } from '@/lib/format'

export function SummaryFigures({ totals }: { totals: FigureTotals }) {
  const figures = [
    { label: 'Views', value: totals.views.toLocaleString('en-US') },
    { label: 'Clicks', value: totals.clicks.toLocaleString('en-US') },
    { label: 'Confirmed subscribers', value: totals.conversions.toLocaleString('en-US') },
    { label: 'Conversion rate', value: `${totals.ctr.toFixed(2)}%`, hint: 'Confirmed subscribers per 100 clicks' },
    { label: 'Spend', value: formatCredits(totals.spend) },
  ]
  return (
    <dl className="grid grid-cols-2 gap-3 md:grid-cols-5" data-testid="analytics-summary">
      {figures.map((figure) => (
        <div key={figure.label} className="rounded-lg border p-3" title={figure.hint}>
          <dt className="text-sm text-muted-foreground">{figure.label}</dt>
          <dd className="text-xl font-semibold tabular-nums">{figure.value}</dd>
        </div>
      ))}
    </dl>
  )
}
