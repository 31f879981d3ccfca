/**
 * Each of the publisher's sources with its engaged rate, once it rests on enough readers (20 whose window has closed
 * and whose newsletter's email tool answered); below that it says how many it has so far.
 */
import { formatCount } from '@/lib/format'
import { ENGAGED_RATE_MIN_READERS, useSourceEngagedRatesQuery } from '@/components/engaged-rate'
import type { OfferSource } from './offer-links'

export function SourceEngagedRates({ sources }: { sources: OfferSource[] }) {
  const rates = useSourceEngagedRatesQuery(sources.map((s) => s.id))
  if (!rates.isSuccess) return null
  const bySource = rates.data
  return (
    <section className="rounded-lg border p-4 text-sm" data-testid="source-engaged-rates">
      <h3 className="font-semibold">How your readers read</h3>
      <p className="text-xs text-muted-foreground">
        Engaged rate: of your readers whose window has closed, the share who opened or clicked a newsletter&apos;s
        email. Shown from {ENGAGED_RATE_MIN_READERS} readers on.
      </p>
      <ul className="mt-2 grid gap-1">
        {sources.map((s) => {
          const r = bySource.get(s.id)
          return (
            <li key={s.id} className="flex flex-wrap justify-between gap-2">
              <span className="min-w-0 truncate">{s.name}</span>
              <span data-testid="source-engaged-rate">
                {r?.rate != null
                  ? `${r.rate.toFixed(1)}% engaged (${formatCount(r.readers)} readers)`
                  : `Too few readers yet (${formatCount(r?.readers ?? 0)} of ${ENGAGED_RATE_MIN_READERS})`}
              </span>
            </li>
          )
        })}
      </ul>
    </section>
  )
}
