/** Clicks and subscribers that were not counted (and not charged), by reason: numbers anyone can explain. */
import { DataTable, dataTableColumns } from '@/components/data-table'
import type { ReasonTotal } from '../activity'

const col = dataTableColumns<ReasonTotal>()
const columns = [
  col.accessor('label', { header: 'Reason', meta: { primary: true } }),
  col.accessor('clicks', { header: 'Clicks', meta: { align: 'right' } }),
  col.accessor('subscribers', { header: 'Subscribers', meta: { align: 'right' } }),
]

export function NotCountedTable({ totals, days }: { totals: ReasonTotal[]; days: number }) {
  if (totals.length === 0) {
    return <p className="text-sm text-muted-foreground">Everything in the last {days} days was counted.</p>
  }
  return (
    <div data-testid="not-counted">
      <DataTable columns={columns} data={totals} caption={`Not counted in the last ${days} days, by reason`} getRowId={(row) => row.reason} />
    </div>
  )
}
