/**
 * The publisher's figures per source or per campaign (`publisher_figures`): the (campaign, source) figures the
 * advertiser sees too, grouped by the database, with the campaigns' real names.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { analyticsKeys } from '../keys'

export type StatsLine = {
  id: string
  name: string
  views: number
  clicks: number
  conversions: number
  ctr: number
  earnings: number
}
export type PublisherStats = { bySource: StatsLine[]; byCampaign: StatsLine[] }

async function grouped(group: 'source' | 'campaign'): Promise<StatsLine[]> {
  const { data, error } = await supabase.rpc('publisher_figures', { p_group: group })
  if (error) throw new Error(error.message)
  return (data ?? []).map((r) => ({
    id: r.id,
    name: r.name,
    views: Number(r.views),
    clicks: Number(r.clicks),
    conversions: Number(r.conversions),
    ctr: Number(r.ctr),
    earnings: Number(r.earnings),
  }))
}

export async function getPublisherStats(): Promise<PublisherStats> {
  const [bySource, byCampaign] = await Promise.all([grouped('source'), grouped('campaign')])
  return { bySource, byCampaign }
}

export const publisherStatsQueryOptions = (userId: string) =>
  queryOptions({ queryKey: analyticsKeys.publisherStats(userId), queryFn: getPublisherStats })

export const usePublisherStatsQuery = (userId: string) => useQuery(publisherStatsQueryOptions(userId))
