/** The campaign's headline numbers over the range, as the database summed them (figure_totals), under the catalogue's labels. */
import type { FigureTotals } from '../api/figure-totals-query'
import { FiguresUpdated } from '@/components/figures-updated'
import { formatCredits } from '@/lib/format'
import { metrics, type MetricKey } from '@/lib/metrics'

const catalogued = (key: MetricKey): { label: string; hint?: string } => ({
  label: metrics[key].label,
  hint: metrics[key].definition,
})

export function SummaryFigures({ totals }: { totals: FigureTotals }) {
  const figures = [
    { ...catalogued('views'), value: totals.views.toLocaleString('en-US') },
    { ...catalogued('countedClicks'), value: totals.clicks.toLocaleString('en-US') },
    { ...catalogued('paidSubscribers'), value: totals.conversions.toLocaleString('en-US') },
    { ...catalogued('conversionRate'), value: `${totals.ctr.toFixed(2)}%` },
    { ...catalogued('spend'), value: formatCredits(totals.spend) },
  ]
  return (
    <div className="space-y-1">
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-5" data-testid="analytics-summary">
        {figures.map((figure) => (
          <div key={figure.label} className="rounded-lg border p-3" title={figure.hint}>
            <dt className="text-sm text-muted-foreground">{figure.label}</dt>
            <dd className="text-xl font-semibold tabular-nums">{figure.value}</dd>
          </div>
        ))}
      </dl>
      {totals.views === 0 ? (
        // A tooltip is not there on a phone: say why Views reads 0 where everyone sees it.
        <p className="text-xs text-muted-foreground" data-testid="views-explained">
          {metrics.views.label} 0: {metrics.views.definition}
        </p>
      ) : null}
      <FiguresUpdated at={totals.updatedAt} />
    </div>
  )
}
