/** Everything the analytics page shows for one campaign: figures, per-source table and bars, per day, not counted. */
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { useCampaignSourceStatsQuery } from '../api/campaign-source-stats-query'
import { ACTIVITY_DAYS, useCampaignActivityQuery } from '../api/campaign-activity-query'
import { BarList } from './bar-list'
import { DailyChart } from './daily-chart'
import { NotCountedTable } from './not-counted-table'
import { QueryError } from '@/components/query-error'
import { SourceStatsTable } from './source-stats-table'
import { SummaryFigures } from './summary-figures'

export function CampaignAnalytics({ campaignId }: { campaignId: string }) {
  const stats = useCampaignSourceStatsQuery(campaignId)
  const activity = useCampaignActivityQuery(campaignId)

  return (
    <div className="space-y-6">
      {stats.isPending ? (
        <div role="status" aria-label="Loading analytics" className="grid grid-cols-2 gap-3 md:grid-cols-5">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} className="h-16" />
          ))}
        </div>
      ) : stats.isError ? (
        <QueryError title="Could not load this newsletter's statistics" error={stats.error} onRetry={() => void stats.refetch()} />
      ) : (
        <>
          <SummaryFigures stats={stats.data} />
          <Card>
            <CardHeader>
              <CardTitle>Per source</CardTitle>
            </CardHeader>
            <CardContent className="space-y-6">
              {stats.data.length === 0 ? (
                <p className="text-sm text-muted-foreground">No source has sent traffic to this newsletter yet.</p>
              ) : (
                <>
                  <div className="grid gap-6 md:grid-cols-2">
                    <BarList title="Confirmed subscribers by source" items={stats.data.map((s) => ({ label: s.sourceName, value: s.conversions }))} />
                    <BarList title="Clicks by source" items={stats.data.map((s) => ({ label: s.sourceName, value: s.clicks }))} />
                  </div>
                  <SourceStatsTable stats={stats.data} />
                </>
              )}
            </CardContent>
          </Card>
        </>
      )}
      <Card>
        <CardHeader>
          <CardTitle>Last {ACTIVITY_DAYS} days</CardTitle>
        </CardHeader>
        <CardContent className="space-y-6">
          {activity.isPending ? (
            <div role="status" aria-label="Loading daily activity">
              <Skeleton className="h-32" />
            </div>
          ) : activity.isError ? (
            <QueryError title="Could not load daily activity" error={activity.error} onRetry={() => void activity.refetch()} />
          ) : (
            <>
              <div className="grid gap-6 md:grid-cols-2">
                <DailyChart title="Counted clicks per day" points={activity.data.days} series="clicks" />
                <DailyChart title="Counted subscribers per day" points={activity.data.days} series="subscribers" />
              </div>
              <div className="space-y-2">
                <h3 className="font-semibold">Not counted, by reason</h3>
                <NotCountedTable totals={activity.data.notCounted} days={ACTIVITY_DAYS} />
                {activity.data.truncated && (
                  <p className="text-xs text-muted-foreground">Showing the most recent activity only.</p>
                )}
              </div>
            </>
          )}
        </CardContent>
      </Card>
    </div>
  )
}
