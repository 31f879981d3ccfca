/**
 * Each source's engaged rate (`engaged_rates`): of its readers whose window has closed and whose email tool answered,
 * the share who opened or clicked; null below 20 such readers ("enough readers"). Computed by the database.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { offerKeys } from '../keys'

export type EngagedRate = { sourceId: string; readers: number; engaged: number; rate: number | null }

/** Readers a rate needs before it is shown (the database's threshold in engaged_rates). */
export const ENGAGED_RATE_MIN_READERS = 20

export async function getEngagedRates(sourceIds: string[]): Promise<EngagedRate[]> {
  const { data, error } = await supabase.rpc('engaged_rates', { p_source_ids: sourceIds }, { get: true })
  if (error) throw new Error(error.message)
  return (data ?? []).map((r) => ({
    sourceId: r.source_id,
    readers: Number(r.readers),
    engaged: Number(r.engaged),
    rate: r.engaged_rate == null ? null : Number(r.engaged_rate),
  }))
}

export const useEngagedRatesQuery = (sourceIds: string[]) =>
  useQuery(
    queryOptions({
      queryKey: offerKeys.engagedRates(sourceIds),
      queryFn: () => getEngagedRates(sourceIds),
      enabled: sourceIds.length > 0,
    }),
  )
