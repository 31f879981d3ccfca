/** SPEC §7: campaign_source_stats where audience_source_id is in the publisher's sources. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { publisherKeys } from '../keys'
import type { StatsRow } from '../lib/stats'

export async function getPublisherStats(sourceIds: readonly string[]): Promise<StatsRow[]> {
  if (sourceIds.length === 0) return []
  const { data, error } = await supabase
    .from('campaign_source_stats')
    .select(
      'campaign_id, audience_source_id, total_views, total_clicks, total_conversions, total_earnings, campaign:campaigns(name), source:audience_sources(name)',
    )
    .in('audience_source_id', [...sourceIds])
  if (error) throw new Error(error.message)
  return (data ?? []) as unknown as StatsRow[]
}

export const publisherStatsQueryOptions = (userId: string, sourceIds: readonly string[]) =>
  queryOptions({ queryKey: publisherKeys.stats(userId, sourceIds), queryFn: () => getPublisherStats(sourceIds) })

export const usePublisherStatsQuery = (userId: string, sourceIds: readonly string[], enabled = true) =>
  useQuery({ ...publisherStatsQueryOptions(userId, sourceIds), enabled })
