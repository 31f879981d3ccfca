/**
 * Counted traffic of one campaign per source (`campaign_source_stats`). Names fall back to SPEC §9's
 * 'Unknown Campaign' / 'Unknown Source' (a source that is no longer public cannot be read by advertisers)
 * and counts to 0.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { analyticsKeys } from '../keys'
import { toCredits } from '@/lib/format'

export type SourceStat = {
  id: string
  campaignName: string
  sourceName: string
  views: number
  clicks: number
  conversions: number
  spend: number
  ctr: number
}

const count = (value: number | string | null | undefined) => Math.max(0, Math.trunc(toCredits(value)))

export async function getCampaignSourceStats(campaignId: string): Promise<SourceStat[]> {
  const { data, error } = await supabase
    .from('campaign_source_stats')
    .select(
      'id, total_views, total_clicks, total_conversions, total_spend, ctr, campaign:campaigns(name), source:audience_sources(name)',
    )
    .eq('campaign_id', campaignId)
    .order('total_conversions', { ascending: false })
  if (error) throw error
  return (data ?? []).map((row) => ({
    id: row.id,
    campaignName: row.campaign?.name || 'Unknown Campaign',
    sourceName: row.source?.name || 'Unknown Source',
    views: count(row.total_views),
    clicks: count(row.total_clicks),
    conversions: count(row.total_conversions),
    spend: toCredits(row.total_spend),
    ctr: toCredits(row.ctr),
  }))
}

export const campaignSourceStatsQueryOptions = (campaignId: string) =>
  queryOptions({ queryKey: analyticsKeys.sourceStats(campaignId), queryFn: () => getCampaignSourceStats(campaignId) })

export const useCampaignSourceStatsQuery = (campaignId: string) => useQuery(campaignSourceStatsQueryOptions(campaignId))
