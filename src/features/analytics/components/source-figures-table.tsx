/** Per-source figures of one campaign, sortable by any column. */
import { SortableTable, sortableColumns } from '@/components/sortable-table'
import { formatCredits } from '@/lib/format'
import type { SourceFigure } from '../api/source-figures-query'

const numeric = { numeric: true }
const col = sortableColumns<SourceFigure>()
const columns = col.columns([
  col.accessor('sourceName', { header: 'Source' }),
  col.accessor('views', { header: 'Views', meta: numeric }),
  col.accessor('clicks', { header: 'Clicks', meta: numeric }),
  col.accessor('conversions', { header: 'Subscribers', meta: numeric }),
  col.accessor('ctr', { header: 'Conversion', meta: numeric, cell: (c) => `${c.getValue().toFixed(2)}%` }),
  col.accessor('spend', { header: 'Spend', meta: numeric, cell: (c) => formatCredits(c.getValue()) }),
])

export function SourceFiguresTable({ rows }: { rows: SourceFigure[] }) {
  return (
    <SortableTable label="Per-source table" caption="Traffic and subscribers per source" data={rows} columns={columns}
      initialSort={[{ id: 'conversions', desc: true }]} testId="source-figures" />
  )
}
