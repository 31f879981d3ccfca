/**
 * Engaged rates as the database computes them, for every screen that shows one: each source's (`engaged_rates`: Offers,
 * the advertiser's analytics) and each newsletter's (`newsletter_engaged_rates`: the public directory). Of the readers
 * whose window has closed and whose email tool answered, the share with a counted open or click; null below 20 such
 * readers (private.engaged_rate), when the screen says there are too few to tell.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { formatCount } from '@/lib/format'

export type EngagedRate = { id: string; readers: number; engaged: number; rate: number | null }

/** Readers a rate needs before it is shown (the database's threshold, private.engaged_rate). */
export const ENGAGED_RATE_MIN_READERS = 20

/** At most 200 ids a call (the functions' own limit). */
const MAX_IDS = 200

type RateRow = { readers: number; engaged: number; engaged_rate: number | string | null }
const toRate = (id: string, r: RateRow): EngagedRate => ({
  id,
  readers: Number(r.readers),
  engaged: Number(r.engaged),
  rate: r.engaged_rate == null ? null : Number(r.engaged_rate),
})

export async function getSourceEngagedRates(sourceIds: string[]): Promise<EngagedRate[]> {
  const { data, error } = await supabase.rpc(
    'engaged_rates',
    { p_source_ids: sourceIds.slice(0, MAX_IDS) },
    { get: true },
  )
  if (error) throw new Error(error.message)
  return (data ?? []).map((r) => toRate(r.source_id, r))
}

export async function getNewsletterEngagedRates(campaignIds: string[]): Promise<EngagedRate[]> {
  const { data, error } = await supabase.rpc(
    'newsletter_engaged_rates',
    { p_campaign_ids: campaignIds.slice(0, MAX_IDS) },
    { get: true },
  )
  if (error) throw new Error(error.message)
  return (data ?? []).map((r) => toRate(r.campaign_id, r))
}

export const engagedRateKeys = {
  all: ['engaged-rates'] as const,
  sources: (ids: string[]) => [...engagedRateKeys.all, 'sources', ...ids] as const,
  newsletters: (ids: string[]) => [...engagedRateKeys.all, 'newsletters', ...ids] as const,
}

/** Id → its rate, for the named sources (one request). */
export const useSourceEngagedRatesQuery = (sourceIds: string[]) =>
  useQuery(
    queryOptions({
      queryKey: engagedRateKeys.sources(sourceIds),
      queryFn: () => getSourceEngagedRates(sourceIds),
      enabled: sourceIds.length > 0,
      select: (rows) => new Map(rows.map((r) => [r.id, r])),
    }),
  )

/** Id → its rate, for the named newsletters (one request). */
export const useNewsletterEngagedRatesQuery = (campaignIds: string[]) =>
  useQuery(
    queryOptions({
      queryKey: engagedRateKeys.newsletters(campaignIds),
      queryFn: () => getNewsletterEngagedRates(campaignIds),
      enabled: campaignIds.length > 0,
      select: (rows) => new Map(rows.map((r) => [r.id, r])),
    }),
  )

/** "62.5%" with the readers it rests on, or "Too few to tell" below the threshold. */
export function EngagedRateValue({ rate }: { rate: EngagedRate | undefined }) {
  if (rate?.rate == null)
    return (
      <span
        className="text-muted-foreground"
        data-testid="engaged-rate"
        title={`Shown from ${ENGAGED_RATE_MIN_READERS} readers whose window has closed (${formatCount(rate?.readers ?? 0)} so far)`}
      >
        Too few to tell
      </span>
    )
  return (
    <span data-testid="engaged-rate">
      {rate.rate.toFixed(1)}%
      <span className="block text-xs text-muted-foreground">of {formatCount(rate.readers)} readers</span>
    </span>
  )
}
