/**
 * The publisher's figures per source or per campaign (`publisher_figures`): the (campaign, source) figures the
 * advertiser sees too, grouped by the database over a date range, with the campaigns' real names; per source also the
 * engagement of its subscribers in the advertisers' email tools (`esp_engagement_figures`, same range).
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import type { DateRange } from '@/lib/date-range'
import { analyticsKeys } from '../keys'
import { getEspEngagement, type SourceEngagement } from './esp-engagement-query'

export type StatsLine = {
  id: string
  name: string
  views: number
  clicks: number
  conversions: number
  ctr: number
  earnings: number
  /** Per source only: null when none of its subscribers went to an email tool that reports opens and clicks. */
  engagement: SourceEngagement | null
}
export type PublisherStats = { bySource: StatsLine[]; byCampaign: StatsLine[] }

async function grouped(group: 'source' | 'campaign', range: DateRange): Promise<StatsLine[]> {
  const { data, error } = await supabase.rpc(
    'publisher_figures',
    {
      p_group: group,
      p_from: range.from,
      p_to: range.to,
    },
    { get: true },
  )
  if (error) throw new Error(error.message)
  return (data ?? []).map((r) => ({
    id: r.id,
    name: r.name,
    views: Number(r.views),
    clicks: Number(r.clicks),
    conversions: Number(r.conversions),
    ctr: Number(r.ctr),
    earnings: Number(r.earnings),
    engagement: null,
  }))
}

export async function getPublisherStats(range: DateRange): Promise<PublisherStats> {
  const [bySource, byCampaign, engagement] = await Promise.all([
    grouped('source', range),
    grouped('campaign', range),
    getEspEngagement(null, range),
  ])
  return { bySource: bySource.map((line) => ({ ...line, engagement: engagement.get(line.id) ?? null })), byCampaign }
}

export const publisherStatsQueryOptions = (userId: string, range: DateRange) =>
  queryOptions({ queryKey: analyticsKeys.publisherStats(userId, range), queryFn: () => getPublisherStats(range) })

export const usePublisherStatsQuery = (userId: string, range: DateRange) =>
  useQuery(publisherStatsQueryOptions(userId, range))
