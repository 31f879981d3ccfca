/**
 * Confirmed subscribers of each campaign over the last 7 days. One exact count per campaign (HEAD request):
 * an advertiser has a handful of campaigns, while a campaign can have many subscribers, so counting on the
 * server beats downloading rows.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { campaignKeys } from '../keys'

export const WEEK_MS = 7 * 24 * 60 * 60 * 1000

export async function getWeekSubscribers(campaignIds: string[], now = Date.now()): Promise<Record<string, number>> {
  const since = new Date(now - WEEK_MS).toISOString()
  const counts = await Promise.all(
    campaignIds.map(async (id) => {
      const { count, error } = await supabase
        .from('newsletter_subscriptions')
        .select('id', { count: 'exact', head: true })
        .eq('campaign_id', id)
        .eq('status', 'confirmed')
        .gte('confirmed_at', since)
      if (error) throw error
      return [id, count ?? 0] as const
    }),
  )
  return Object.fromEntries(counts)
}

export const weekSubscribersQueryOptions = (campaignIds: string[]) =>
  queryOptions({
    queryKey: campaignKeys.weekSubscribers(campaignIds),
    queryFn: () => getWeekSubscribers(campaignIds),
    enabled: campaignIds.length > 0,
  })

export const useWeekSubscribersQuery = (campaignIds: string[]) => useQuery(weekSubscribersQueryOptions(campaignIds))
