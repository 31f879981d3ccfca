/** Everything the analytics page shows for one campaign over a date range: figures, per-day charts, per source, not counted. */
import { useState } from 'react'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { QueryError } from '@/components/query-error'
import { DateRangePicker } from '@/components/date-range-picker'
import { DailyFiguresChart } from '@/components/daily-figures-chart'
import { FiguresUpdated } from '@/components/figures-updated'
import { lastDays } from '@/lib/date-range'
import { useFigureTotalsQuery } from '../api/figure-totals-query'
import { useDailyFiguresQuery } from '../api/daily-figures-query'
import { useSourceFiguresQuery } from '../api/source-figures-query'
import { useNotCountedQuery } from '../api/not-counted-query'
import { NotCountedTable } from './not-counted-table'
import { SourceFiguresTable } from './source-figures-table'
import { SummaryFigures } from './summary-figures'
import { metrics } from '@/lib/metrics'
import type { FigureScope } from '../scope'

const loading = (label: string, className = 'h-32') => (
  <div role="status" aria-label={label}>
    <Skeleton className={className} />
  </div>
)

/** `campaignId` is a campaign's id, or (admins) a source scope: then the per-source table lists newsletters. */
export function CampaignAnalytics({ campaignId }: { campaignId: FigureScope }) {
  const perNewsletter = typeof campaignId === 'object' && campaignId.kind === 'source'
  const [range, setRange] = useState(() => lastDays(30))
  const totals = useFigureTotalsQuery(campaignId, range)
  const daily = useDailyFiguresQuery(campaignId, range)
  const sources = useSourceFiguresQuery(campaignId, range)
  const notCounted = useNotCountedQuery(campaignId, range)

  return (
    <div className="space-y-6">
      <DateRangePicker value={range} onChange={setRange} />
      {totals.isPending ? (
        loading('Loading analytics', 'h-16')
      ) : totals.isError ? (
        <QueryError
          title="Could not load this newsletter's figures"
          error={totals.error}
          onRetry={() => void totals.refetch()}
        />
      ) : (
        <SummaryFigures totals={totals.data} />
      )}
      <Card>
        <CardHeader>
          <CardTitle>Per day</CardTitle>
        </CardHeader>
        <CardContent>
          {daily.isPending ? (
            loading('Loading daily figures')
          ) : daily.isError ? (
            <QueryError title="Could not load daily figures" error={daily.error} onRetry={() => void daily.refetch()} />
          ) : (
            <div className="grid gap-6 md:grid-cols-2">
              <DailyFiguresChart
                title={`${metrics.countedClicks.label} and views`}
                points={daily.data}
                series={['clicks', 'views']}
                unit="count"
                empty="No clicks or views in this range. They appear when visitors follow a publisher's link to this newsletter."
              />
              <DailyFiguresChart
                title={metrics.paidSubscribers.label}
                points={daily.data}
                series={['conversions']}
                unit="count"
                empty="No paid subscribers in this range. Each subscriber who confirms by email through a source, and counts, appears here."
              />
              <DailyFiguresChart
                title="Spend"
                points={daily.data}
                series={['spend']}
                unit="credits"
                empty="Nothing spent in this range: you pay only for confirmed subscribers."
              />
            </div>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{perNewsletter ? 'Per newsletter' : 'Per source'}</CardTitle>
        </CardHeader>
        <CardContent>
          {sources.isPending ? (
            loading('Loading per-source figures')
          ) : sources.isError ? (
            <QueryError
              title="Could not load per-source figures"
              error={sources.error}
              onRetry={() => void sources.refetch()}
            />
          ) : sources.data.rows.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              {perNewsletter
                ? 'This source has sent no traffic to any newsletter in this range.'
                : 'No source has sent traffic to this newsletter in this range.'}
            </p>
          ) : (
            <div className="space-y-1">
              <SourceFiguresTable rows={sources.data.rows} perNewsletter={perNewsletter} />
              <FiguresUpdated at={sources.data.updatedAt} testId="source-figures-updated" />
            </div>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Not counted, by reason</CardTitle>
        </CardHeader>
        <CardContent>
          {notCounted.isPending ? (
            loading('Loading not-counted totals')
          ) : notCounted.isError ? (
            <QueryError
              title="Could not load not-counted totals"
              error={notCounted.error}
              onRetry={() => void notCounted.refetch()}
            />
          ) : (
            <NotCountedTable rows={notCounted.data} />
          )}
        </CardContent>
      </Card>
    </div>
  )
}
