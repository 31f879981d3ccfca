/** Per-source numbers of one campaign. */
import type { SourceStat } from '../api/campaign-source-stats-query'
import { formatCredits } from '@/lib/format'
import { TableScroll } from '@/components/table-scroll'

export function SourceStatsTable({ stats }: { stats: SourceStat[] }) {
  return (
    <TableScroll label="Per-source table">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Traffic and subscribers per source</caption>
        <thead className="border-b text-muted-foreground">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">Source</th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">Views</th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">Clicks</th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">Subscribers</th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">Conversion</th>
            <th scope="col" className="py-2 text-right font-medium">Spend</th>
          </tr>
        </thead>
        <tbody>
          {stats.map((row) => (
            <tr key={row.id} className="border-b last:border-0">
              <th scope="row" className="py-2 pr-3 font-normal">{row.sourceName}</th>
              <td className="py-2 pr-3 text-right tabular-nums">{row.views}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{row.clicks}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{row.conversions}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{row.ctr.toFixed(1)}%</td>
              <td className="py-2 text-right tabular-nums whitespace-nowrap">{formatCredits(row.spend)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  )
}
