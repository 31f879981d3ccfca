/** This week at a glance for a publisher: counted clicks, confirmed subscribers and paid subscribers (source_totals). */
import { FiguresUpdated } from '@/components/figures-updated'
import { Metric, metricValue } from '@/components/metric'
import { metrics } from '@/lib/metrics'
import { usePublisherWeekQuery } from '../api/publisher-week-query'

export function PublisherWeekSummary({ userId }: { userId: string }) {
  const week = usePublisherWeekQuery(userId)
  return (
    <section aria-labelledby="week-title" className="flex flex-col gap-3">
      <h2 id="week-title" className="text-xl font-semibold">
        This week
      </h2>
      {week.isError && <p className="text-sm text-red-700">Could not load this week: {week.error.message}</p>}
      <dl className="grid gap-3 sm:grid-cols-3">
        <Metric
          testId="week-clicks"
          label={metrics.sourceCountedClicks.label}
          hint={metrics.sourceCountedClicks.definition}
          value={metricValue(week, () => week.data!.clicks)}
        />
        <Metric
          testId="week-confirmed"
          label={metrics.sourceConfirmedSubscribers.label}
          hint={metrics.sourceConfirmedSubscribers.definition}
          value={metricValue(week, () => week.data!.confirmed)}
        />
        <Metric
          testId="week-subscribers"
          label={metrics.sourcePaidSubscribers.label}
          hint={metrics.sourcePaidSubscribers.definition}
          value={metricValue(week, () => week.data!.subscribers)}
        />
      </dl>
      <FiguresUpdated at={week.data?.updatedAt} />
    </section>
  )
}
