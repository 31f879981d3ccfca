/** Per-source numbers of one campaign, sortable by any column. */
import { DataTable, dataTableColumns } from '@/components/data-table'
import { formatCredits } from '@/lib/format'
import type { SourceStat } from '../api/campaign-source-stats-query'

const col = dataTableColumns<SourceStat>()
const figure = { align: 'right' } as const
const columns = [
  col.accessor('sourceName', { header: 'Source', meta: { primary: true } }),
  col.accessor('views', { header: 'Views', meta: figure }),
  col.accessor('clicks', { header: 'Clicks', meta: figure }),
  col.accessor('conversions', { header: 'Subscribers', meta: figure }),
  col.accessor('ctr', { header: 'Conversion', meta: figure, cell: (c) => `${c.getValue().toFixed(1)}%` }),
  col.accessor('spend', { header: 'Spend', meta: figure, cell: (c) => formatCredits(c.getValue()) }),
]

export function SourceStatsTable({ stats }: { stats: SourceStat[] }) {
  return <DataTable columns={columns} data={stats} caption="Traffic and subscribers per source" getRowId={(row) => row.id} />
}
