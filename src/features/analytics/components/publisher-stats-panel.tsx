/** Stats per source and per campaign from the database (publisher_figures): views, counted clicks, paid subscribers, CTR, earnings; per source the engagement in the advertisers' email tools. */
import { DataTable, dataTableColumns } from '@/components/data-table'
import { usePublisherStatsQuery, type StatsLine } from '../api/publisher-stats-query'
import { formatCredits } from '@/lib/format'
import { PanelState } from '@/components/panel-state'
import { metrics } from '@/lib/metrics'
import { ENGAGEMENT_HEADER, EngagementCell, engagementSortValue } from './engagement-cell'

const col = dataTableColumns<StatsLine>()
const figure = { align: 'right' } as const
const columnsFor = (nameHeader: string) => [
  col.accessor('name', { header: nameHeader, meta: { primary: true } }),
  col.accessor('views', { header: 'Views', meta: figure }),
  col.accessor('clicks', { header: metrics.statsCountedClicks.label, meta: figure }),
  col.accessor('conversions', { header: metrics.statsPaidSubscribers.label, meta: figure }),
  col.accessor('ctr', { header: 'CTR', meta: figure, cell: (c) => `${c.getValue().toFixed(2)}%` }),
  col.accessor('earnings', { header: 'Earnings', meta: figure, cell: (c) => formatCredits(c.getValue()) }),
]
const sourceColumns = [
  ...columnsFor('Source'),
  col.accessor((line) => engagementSortValue(line.engagement), {
    id: 'engagement',
    header: ENGAGEMENT_HEADER,
    meta: figure,
    cell: (c) => <EngagementCell engagement={c.row.original.engagement} />,
  }),
]
const campaignColumns = columnsFor('Newsletter')

function StatsTable({ title, lines, columns }: { title: string; lines: StatsLine[]; columns: typeof sourceColumns }) {
  return (
    <section className="flex flex-col gap-2" aria-label={title}>
      <h3 className="text-lg font-semibold">{title}</h3>
      {lines.length === 0 ? (
        <p className="text-sm text-muted-foreground">No traffic yet. Share your magic links to see numbers here.</p>
      ) : (
        <DataTable columns={columns} data={lines} caption={title} getRowId={(line) => line.id} />
      )}
    </section>
  )
}

export function PublisherStatsPanel({ userId }: { userId: string }) {
  const stats = usePublisherStatsQuery(userId)
  if (stats.isError) return <PanelState state="error" message={stats.error.message} />
  if (stats.isPending) return <PanelState state="loading" />
  return (
    <div className="flex flex-col gap-6">
      <p className="text-sm text-muted-foreground">
        A source's counted clicks are its own, whichever newsletters its visitors opened; a newsletter's are the counted
        clicks that opened it. CTR is paid subscribers per 100 counted clicks. Only counted traffic appears here; the
        Sources tab shows what was not counted and why. Engaged: of your subscribers whose opens and clicks the
        advertiser&apos;s email tool reported during their first week, the share who opened or clicked.
      </p>
      <StatsTable title="Per source" columns={sourceColumns} lines={stats.data.bySource} />
      <StatsTable title="Per campaign" columns={campaignColumns} lines={stats.data.byCampaign} />
    </div>
  )
}
