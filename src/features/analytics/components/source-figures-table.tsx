/** Per-source figures of one campaign, sortable by any column (most subscribers first). */
import { DataTable, dataTableColumns } from '@/components/data-table'
import { formatCredits } from '@/lib/format'
import type { SourceFigure } from '../api/source-figures-query'
import { metrics } from '@/lib/metrics'

const figure = { align: 'right' } as const
const col = dataTableColumns<SourceFigure>()
const columns = [
  col.accessor('sourceName', { header: 'Source', meta: { primary: true } }),
  col.accessor('views', { header: 'Views', meta: figure }),
  col.accessor('clicks', { header: metrics.countedClicks.label, meta: figure }),
  col.accessor('conversions', { header: metrics.paidSubscribers.label, meta: figure }),
  col.accessor('ctr', {
    header: metrics.conversionRate.label,
    meta: figure,
    cell: (c) => `${c.getValue().toFixed(2)}%`,
  }),
  col.accessor('spend', { header: 'Spend', meta: figure, cell: (c) => formatCredits(c.getValue()) }),
]

export function SourceFiguresTable({ rows }: { rows: SourceFigure[] }) {
  return (
    <div data-testid="source-figures">
      <DataTable
        columns={columns}
        data={rows}
        caption="Traffic and subscribers per source"
        getRowId={(row) => row.sourceId}
        initialSorting={[{ id: 'conversions', desc: true }]}
      />
    </div>
  )
}
