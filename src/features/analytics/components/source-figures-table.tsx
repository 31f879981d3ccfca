/** Per-source figures of one campaign, sortable by any column (most subscribers first), with their engagement in the advertiser's email tool. */
import { DataTable, dataTableColumns } from '@/components/data-table'
import { formatCredits } from '@/lib/format'
import type { SourceFigure } from '../api/source-figures-query'
import { metrics } from '@/lib/metrics'
import { ENGAGEMENT_HEADER, EngagementCell, engagementSortValue } from './engagement-cell'

const figure = { align: 'right' } as const
const col = dataTableColumns<SourceFigure>()
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
]

const perSourceColumns = columnsFor(false)
// One source's rows per newsletter (admins): the engagement column is the advertiser's email tool's, not shown.
const perNewsletterColumns = columnsFor(true).filter((c) => c.id !== 'engagement')

export function SourceFiguresTable({ rows, perNewsletter = false }: { rows: SourceFigure[]; perNewsletter?: boolean }) {
  return (
    <div data-testid="source-figures">
      <DataTable
        columns={perNewsletter ? perNewsletterColumns : perSourceColumns}
        data={rows}
        caption={perNewsletter ? 'Traffic and subscribers per newsletter' : 'Traffic and subscribers per source'}
        getRowId={(row) => row.sourceId}
        initialSorting={[{ id: 'conversions', desc: true }]}
      />
      {!perNewsletter && (
        <p className="mt-2 text-xs text-muted-foreground">
          Engaged: of the subscribers whose opens and clicks your email tool reported during their first week (beehiiv,
          Kit, Mailchimp and MailerLite all report them), the share who opened or clicked.
        </p>
      )}
    </div>
  )
}
