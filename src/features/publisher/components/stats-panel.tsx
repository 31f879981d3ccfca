/** Stats per source and per campaign from the database (publisher_figures): views, clicks, conversions, CTR, earnings. */
import { usePublisherStatsQuery, type StatsLine } from '../api/publisher-stats-query'
import { formatCredits } from '../lib/earnings'
import { PanelState } from './panel-state'

function StatsTable({ title, nameHeader, lines }: { title: string; nameHeader: string; lines: StatsLine[] }) {
  return (
    <section className="flex flex-col gap-2" aria-label={title}>
      <h3 className="text-lg font-semibold">{title}</h3>
      {lines.length === 0 ? (
        <p className="text-sm text-muted-foreground">No traffic yet. Share your magic links to see numbers here.</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border">
          <table className="w-full min-w-[560px] text-sm">
            <thead className="bg-muted/50 text-left">
              <tr>
                <th scope="col" className="p-2 font-medium">{nameHeader}</th>
                <th scope="col" className="p-2 text-right font-medium">Views</th>
                <th scope="col" className="p-2 text-right font-medium">Clicks</th>
                <th scope="col" className="p-2 text-right font-medium">Conversions</th>
                <th scope="col" className="p-2 text-right font-medium">CTR</th>
                <th scope="col" className="p-2 text-right font-medium">Earnings</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line) => (
                <tr key={line.id} className="border-t">
                  <th scope="row" className="p-2 text-left font-normal">{line.name}</th>
                  <td className="p-2 text-right tabular-nums">{line.views}</td>
                  <td className="p-2 text-right tabular-nums">{line.clicks}</td>
                  <td className="p-2 text-right tabular-nums">{line.conversions}</td>
                  <td className="p-2 text-right tabular-nums">{line.ctr.toFixed(2)}%</td>
                  <td className="p-2 text-right tabular-nums">{formatCredits(line.earnings)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

export function StatsPanel({ userId }: { userId: string }) {
  const stats = usePublisherStatsQuery(userId)
  if (stats.isError) return <PanelState state="error" message={stats.error.message} />
  if (stats.isPending) return <PanelState state="loading" />
  return (
    <div className="flex flex-col gap-6">
      <h2 className="text-xl font-semibold">Stats</h2>
      <p className="text-sm text-muted-foreground">
        CTR is confirmed subscribers per 100 counted clicks. Only counted traffic appears here; the Sources tab shows
        what was not counted and why.
      </p>
      <StatsTable title="Per source" nameHeader="Source" lines={stats.data.bySource} />
      <StatsTable title="Per campaign" nameHeader="Newsletter" lines={stats.data.byCampaign} />
    </div>
  )
}
