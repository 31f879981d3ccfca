/** Clicks and subscribers that were not counted (and not charged), by reason: numbers anyone can explain. */
import type { NotCountedRow } from '../api/not-counted-query'
import { TableScroll } from '@/components/table-scroll'

export function NotCountedTable({ rows }: { rows: NotCountedRow[] }) {
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">Everything in this range was counted.</p>
  const labels = [...new Map(rows.map((r) => [r.reason, r.label])).entries()]
  const total = (kind: NotCountedRow['kind'], reason: string) => rows.find((r) => r.kind === kind && r.reason === reason)?.total ?? 0
  return (
    <TableScroll label="Not counted table">
      <table className="w-full text-left text-sm" data-testid="not-counted">
        <caption className="sr-only">Not counted in this range, by reason</caption>
        <thead className="border-b text-muted-foreground">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">Reason</th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">Clicks</th>
            <th scope="col" className="py-2 text-right font-medium">Subscribers</th>
          </tr>
        </thead>
        <tbody>
          {labels.map(([reason, label]) => (
            <tr key={reason} className="border-b last:border-0">
              <th scope="row" className="py-2 pr-3 font-normal">{label}</th>
              <td className="py-2 pr-3 text-right tabular-nums">{total('click', reason)}</td>
              <td className="py-2 text-right tabular-nums">{total('subscription', reason)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  )
}
