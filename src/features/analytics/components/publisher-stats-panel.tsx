/**
 * Stats over a date range the publisher picks: paid subscribers and earnings per day (daily_figures), and per
 * source and per campaign (publisher_figures): views, counted clicks, paid subscribers, CTR, earnings; per source the
 * engagement in the advertisers' email tools.
 */
import { useState } from 'react'
import { DataTable, dataTableColumns } from '@/components/data-table'
import { DateRangePicker } from '@/components/date-range-picker'
import { DailyFiguresChart } from '@/components/daily-figures-chart'
import { QueryError } from '@/components/query-error'
import { lastDays, type DateRange } from '@/lib/date-range'
import { usePublisherStatsQuery, type StatsLine } from '../api/publisher-stats-query'
import { usePublisherDailyQuery } from '../api/publisher-daily-query'
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
        <p className="text-sm text-muted-foreground">
          No traffic in this range. Share your magic links to see numbers here.
        </p>
      ) : (
        <DataTable columns={columns} data={lines} caption={title} getRowId={(line) => line.id} />
      )}
    </section>
  )
}

function DailyCharts({ userId, range }: { userId: string; range: DateRange }) {
  const daily = usePublisherDailyQuery(userId, range)
  if (daily.isPending) return <PanelState state="loading" />
  if (daily.isError)
    return (
      <QueryError
        title="We couldn't load your daily figures. Try again."
        error={daily.error}
        onRetry={() => void daily.refetch()}
      />
    )
  return (
    <section className="grid gap-6 md:grid-cols-2" aria-label="Per day">
      <DailyFiguresChart
        title={metrics.dailyPaidSubscribers.label}
        points={daily.data}
        series={['conversions']}
        unit="count"
        empty="No paid subscribers in this range. Each reader who confirms through your links appears here."
      />
      <DailyFiguresChart
        title="Earnings"
        points={daily.data}
        series={['earnings']}
        unit="credits"
        empty="No earnings in this range: you earn for every paid subscriber your links bring."
      />
    </section>
  )
}

export function PublisherStatsPanel({ userId }: { userId: string }) {
  const [range, setRange] = useState(() => lastDays(30))
  const stats = usePublisherStatsQuery(userId, range)
  return (
    <div className="flex flex-col gap-6">
      <DateRangePicker value={range} onChange={setRange} />
      <DailyCharts userId={userId} range={range} />
      <p className="text-sm text-muted-foreground">
        A source's counted clicks are its own, whichever newsletters its visitors opened; a newsletter's are the counted
        clicks that opened it. CTR is paid subscribers per 100 counted clicks. Only counted traffic appears in these
        tables; the readers who were not paid are listed below with the reason. {ENGAGEMENT_HEADER}: of your subscribers
        whose opens and clicks the advertiser&apos;s email tool reported during their first week, the share who opened
        or clicked.
      </p>
      {stats.isError ? (
        <PanelState state="error" message={stats.error.message} />
      ) : stats.isPending ? (
        <PanelState state="loading" />
      ) : (
        <>
          <StatsTable title="Per source" columns={sourceColumns} lines={stats.data.bySource} />
          <StatsTable title="Per campaign" columns={campaignColumns} lines={stats.data.byCampaign} />
        </>
      )}
    </div>
  )
}
