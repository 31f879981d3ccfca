/**
 * The publisher's figures per source or per campaign (`publisher_figures`): the (campaign, source) figures the
 * advertiser sees too, grouped by the database over a date range, with the campaigns' real names.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import type { DateRange } from '@/lib/date-range'
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

async function grouped(group: 'source' | 'campaign', range: DateRange): Promise<StatsLine[]> {
  const { data, error } = await supabase.rpc('publisher_figures', {
    p_group: group,
    p_from: range.from,
    p_to: range.to,
  })
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

export async function getPublisherStats(range: DateRange): Promise<PublisherStats> {
  const [bySource, byCampaign] = await Promise.all([grouped('source', range), grouped('campaign', range)])
  return { bySource, byCampaign }
}

export const publisherStatsQueryOptions = (userId: string, range: DateRange) =>
  queryOptions({ queryKey: analyticsKeys.publisherStats(userId, range), queryFn: () => getPublisherStats(range) })

export const usePublisherStatsQuery = (userId: string, range: DateRange) =>
  useQuery(publisherStatsQueryOptions(userId, range))
