/** Clicks and subscribers that were not counted (and not charged), by reason: numbers anyone can explain. */
import type { ReasonTotal } from '../activity'
import { TableScroll } from '@/components/table-scroll'

export function NotCountedTable({ totals, days }: { totals: ReasonTotal[]; days: number }) {
  if (totals.length === 0) {
    return <p className="text-sm text-muted-foreground">Everything in the last {days} days was counted.</p>
  }
  return (
    <TableScroll label="Not counted table">
      <table className="w-full text-left text-sm" data-testid="not-counted">
        <caption className="sr-only">Not counted in the last {days} days, by reason</caption>
        <thead className="border-b text-muted-foreground">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">Reason</th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">Clicks</th>
            <th scope="col" className="py-2 text-right font-medium">Subscribers</th>
          </tr>
        </thead>
        <tbody>
          {totals.map((row) => (
            <tr key={row.reason} className="border-b last:border-0">
              <th scope="row" className="py-2 pr-3 font-normal">{row.label}</th>
              <td className="py-2 pr-3 text-right tabular-nums">{row.clicks}</td>
              <td className="py-2 text-right tabular-nums">{row.subscribers}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  )
}
