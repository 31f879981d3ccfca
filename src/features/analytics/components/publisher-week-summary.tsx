/** This week at a glance for a publisher: counted clicks and the confirmed subscribers they brought. */
import { Metric, metricValue } from '@/components/metric'
import { usePublisherWeekQuery } from '../api/publisher-week-query'

export function PublisherWeekSummary({ userId }: { userId: string }) {
  const week = usePublisherWeekQuery(userId)
  return (
    <section aria-labelledby="week-title" className="flex flex-col gap-3">
      <h2 id="week-title" className="text-xl font-semibold">
        This week
      </h2>
      {week.isError && <p className="text-sm text-red-700">Could not load this week: {week.error.message}</p>}
      <dl className="grid gap-3 sm:grid-cols-2">
        <Metric testId="week-clicks" label="Counted clicks" value={metricValue(week, () => week.data!.clicks)} />
        <Metric
          testId="week-subscribers"
          label="Confirmed subscribers"
          value={metricValue(week, () => week.data!.subscribers)}
        />
      </dl>
    </section>
  )
}
