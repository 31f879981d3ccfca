/**
 * The publisher's figures per UTC day over a range (`daily_figures` with no campaign or source named sums the
 * caller's own sources), every day filled by the database.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toChartPoints } from '@/lib/chart-data'
import type { DateRange } from '@/lib/date-range'
import { analyticsKeys } from '../keys'

export async function getPublisherDaily(range: DateRange) {
  const { data, error } = await supabase.rpc('daily_figures', { p_from: range.from, p_to: range.to }, { get: true })
  if (error) throw new Error(error.message)
  return toChartPoints(data ?? [])
}

export const publisherDailyQueryOptions = (userId: string, range: DateRange) =>
  queryOptions({ queryKey: analyticsKeys.publisherDaily(userId, range), queryFn: () => getPublisherDaily(range) })

export const usePublisherDailyQuery = (userId: string, range: DateRange) =>
  useQuery(publisherDailyQueryOptions(userId, range))
