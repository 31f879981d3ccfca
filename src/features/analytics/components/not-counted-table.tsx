/** Clicks and subscribers that were not counted (and not charged), by reason: numbers anyone can explain. */
import { DataTable, dataTableColumns } from '@/components/data-table'
import type { NotCountedRow } from '../api/not-counted-query'

type ReasonLine = { reason: string; label: string; clicks: number; subscribers: number }

const col = dataTableColumns<ReasonLine>()
const columns = [
  col.accessor('label', { header: 'Reason', meta: { primary: true } }),
  col.accessor('clicks', { header: 'Clicks', meta: { align: 'right' } }),
  col.accessor('subscribers', { header: 'Subscribers', meta: { align: 'right' } }),
]

export function NotCountedTable({ rows }: { rows: NotCountedRow[] }) {
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">Everything in this range was counted.</p>
  // The database gives one row per kind and reason; a line per reason puts clicks and subscribers side by side.
  const total = (kind: NotCountedRow['kind'], reason: string) =>
    rows.find((r) => r.kind === kind && r.reason === reason)?.total ?? 0
  const lines = [...new Map(rows.map((r) => [r.reason, r.label])).entries()].map(([reason, label]) => ({
    reason,
    label,
    clicks: total('click', reason),
    subscribers: total('subscription', reason),
  }))
  return (
    <div data-testid="not-counted">
      <DataTable
        columns={columns}
        data={lines}
        caption="Not counted in this range, by reason"
        getRowId={(line) => line.reason}
      />
    </div>
  )
}
