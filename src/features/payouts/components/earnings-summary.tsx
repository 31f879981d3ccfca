/** A publisher's earnings from the database: pending (in screening), available and paid. */
import { Metric, metricValue } from '@/components/metric'
import { formatCredits } from '@/lib/format'
import { usePublisherEarningsQuery } from '../api/publisher-earnings-query'

export function EarningsSummary({ userId }: { userId: string }) {
  const earnings = usePublisherEarningsQuery(userId)
  return (
    <section aria-labelledby="earnings-title" className="flex flex-col gap-3">
      <h2 id="earnings-title" className="text-xl font-semibold">
        Earnings
      </h2>
      {earnings.isError && <p className="text-sm text-red-700">Could not load earnings: {earnings.error.message}</p>}
      <dl className="grid gap-3 sm:grid-cols-3">
        <Metric
          testId="earnings-pending"
          label="Pending"
          hint="In the 7-day screening period"
          value={metricValue(earnings, () => formatCredits(earnings.data!.pending))}
        />
        <Metric
          testId="earnings-available"
          label="Available"
          hint="Ready for a payout"
          value={metricValue(earnings, () => formatCredits(earnings.data!.available))}
        />
        <Metric
          testId="earnings-paid"
          label="Paid"
          value={metricValue(earnings, () => formatCredits(earnings.data!.paid))}
        />
      </dl>
    </section>
  )
}
