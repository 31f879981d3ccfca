/**
 * Clicks on the publisher's sources, counted and not counted by reason, as the database totals them
 * (`source_figures` and `source_not_counted` over the maintained per-day aggregates): exact at any number of clicks.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { audienceKeys } from '../keys'
import { breakdownBySource } from '../lib/click-breakdown'

export async function getSourceClicks() {
  const [figures, reasons] = await Promise.all([
    supabase.rpc('source_figures', undefined, { get: true }),
    supabase.rpc('source_not_counted', undefined, { get: true }),
  ])
  if (figures.error) throw new Error(figures.error.message)
  if (reasons.error) throw new Error(reasons.error.message)
  return { bySource: breakdownBySource(figures.data ?? [], reasons.data ?? []) }
}

export const sourceClicksQueryOptions = (userId: string) =>
  queryOptions({ queryKey: audienceKeys.ownClicks(userId), queryFn: getSourceClicks })

export const useSourceClicksQuery = (userId: string, enabled = true) =>
  useQuery({ ...sourceClicksQueryOptions(userId), enabled })
