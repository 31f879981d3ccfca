/**
 * Clicks on the publisher's sources (row-level security shows a publisher only their own), reduced to
 * counted and not-counted-by-reason per source. Only three narrow columns travel, in pages of 1,000.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { publisherKeys } from '../keys'
import { breakdownBySource, type ClickRow } from '../lib/click-breakdown'

const PAGE = 1000
/** A dashboard summary, not an export: past this many rows the numbers say "at least". */
export const MAX_CLICK_ROWS = 20_000

export async function getSourceClicks(sourceIds: readonly string[]) {
  const rows: ClickRow[] = []
  if (sourceIds.length === 0) return { bySource: breakdownBySource(rows), truncated: false }
  for (let from = 0; from < MAX_CLICK_ROWS; from += PAGE) {
    const { data, error } = await supabase
      .from('link_clicks')
      .select('audience_source_id, counted, not_counted_reason')
      .in('audience_source_id', [...sourceIds])
      .order('id')
      .range(from, from + PAGE - 1)
    if (error) throw new Error(error.message)
    rows.push(...(data ?? []))
    if ((data ?? []).length < PAGE) return { bySource: breakdownBySource(rows), truncated: false }
  }
  return { bySource: breakdownBySource(rows), truncated: true }
}

export const sourceClicksQueryOptions = (userId: string, sourceIds: readonly string[]) =>
  queryOptions({ queryKey: publisherKeys.clicks(userId, sourceIds), queryFn: () => getSourceClicks(sourceIds) })

export const useSourceClicksQuery = (userId: string, sourceIds: readonly string[], enabled = true) =>
  useQuery({ ...sourceClicksQueryOptions(userId, sourceIds), enabled })
