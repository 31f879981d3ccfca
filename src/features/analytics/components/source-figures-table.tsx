/**
 * Per-source figures of one campaign, sortable by any column (most subscribers first), with their engagement in the
 * advertiser's email tool and each source's engaged rate across newsletters (engaged_rates, from 20 readers).
 */
import { useMemo } from 'react'
import { DataTable, dataTableColumns } from '@/components/data-table'
import {
  ENGAGED_RATE_MIN_READERS,
  EngagedRateValue,
  useSourceEngagedRatesQuery,
  type EngagedRate,
} from '@/components/engaged-rate'
import { formatCredits } from '@/lib/format'
import type { SourceFigure } from '../api/source-figures-query'
import { metrics } from '@/lib/metrics'
import { ENGAGEMENT_HEADER, EngagementCell, engagementSortValue } from './engagement-cell'

const figure = { align: 'right' } as const
type SourceRow = SourceFigure & { engagedRate?: EngagedRate }
const col = dataTableColumns<SourceRow>()
const columnsFor = (perNewsletter: boolean) => [
  col.accessor('sourceName', { header: perNewsletter ? 'Newsletter' : 'Source', meta: { primary: true } }),
  col.accessor('views', { header: 'Views', meta: figure }),
  col.accessor('clicks', { header: metrics.countedClicks.label, meta: figure }),
  col.accessor('conversions', { header: metrics.paidSubscribers.label, meta: figure }),
  col.accessor('ctr', {
    header: metrics.conversionRate.label,
    meta: figure,
    cell: (c) => `${c.getValue().toFixed(2)}%`,
  }),
  col.accessor('spend', { header: 'Spend', meta: figure, cell: (c) => formatCredits(c.getValue()) }),
  col.accessor((row) => engagementSortValue(row.engagement), {
    id: 'engagement',
    header: ENGAGEMENT_HEADER,
    meta: figure,
    cell: (c) => <EngagementCell engagement={c.row.original.engagement} />,
  }),
  col.accessor((row) => row.engagedRate?.rate ?? -1, {
    id: 'engagedRate',
    header: metrics.sourceEngagedRate.label,
    meta: figure,
    cell: (c) => <EngagedRateValue rate={c.row.original.engagedRate} />,
  }),
]

const perSourceColumns = columnsFor(false)
// One source's rows per newsletter (admins): the engagement columns are about sources, not shown.
const perNewsletterColumns = columnsFor(true).filter((c) => c.id !== 'engagement' && c.id !== 'engagedRate')

export function SourceFiguresTable({ rows, perNewsletter = false }: { rows: SourceFigure[]; perNewsletter?: boolean }) {
  const rates = useSourceEngagedRatesQuery(perNewsletter ? [] : rows.map((r) => r.sourceId))
  const withRates = useMemo<SourceRow[]>(
    () => (rates.data ? rows.map((r) => ({ ...r, engagedRate: rates.data.get(r.sourceId) })) : rows),
    [rows, rates.data],
  )
  return (
    <div data-testid="source-figures">
      <DataTable
        columns={perNewsletter ? perNewsletterColumns : perSourceColumns}
        data={withRates}
        caption={perNewsletter ? 'Traffic and subscribers per newsletter' : 'Traffic and subscribers per source'}
        getRowId={(row) => row.sourceId}
        initialSorting={[{ id: 'conversions', desc: true }]}
      />
      {!perNewsletter && (
        <p className="mt-2 text-xs text-muted-foreground">
          {ENGAGEMENT_HEADER}: of the subscribers whose opens and clicks your email tool reported during their first
          week (beehiiv, Kit, Mailchimp and MailerLite all report them), the share who opened or clicked.{' '}
          {metrics.sourceEngagedRate.label}: of the source&apos;s readers in every newsletter whose engagement window
          has closed, the share with a counted open or click; shown from {ENGAGED_RATE_MIN_READERS} readers.
        </p>
      )}
    </div>
  )
}
