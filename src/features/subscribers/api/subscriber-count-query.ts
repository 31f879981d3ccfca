/** How many confirmed subscribers match (the pager's total), counted by the database. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { subscriberKeys } from '../keys'

export async function getSubscriberCount(campaignId: string, search: string): Promise<number> {
  const { data, error } = await supabase.rpc(
    'campaign_subscriber_count',
    {
      p_campaign_id: campaignId,
      p_search: search || undefined,
    },
    { get: true },
  )
  if (error) throw error
  return Number(data ?? 0)
}

export const subscriberCountQueryOptions = (campaignId: string, search: string) =>
  queryOptions({
    queryKey: subscriberKeys.count(campaignId, search),
    queryFn: () => getSubscriberCount(campaignId, search),
  })

export const useSubscriberCountQuery = (campaignId: string, search: string) =>
  useQuery(subscriberCountQueryOptions(campaignId, search))
