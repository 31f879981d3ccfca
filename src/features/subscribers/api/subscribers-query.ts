/** One page of a campaign's confirmed subscribers (campaign_subscribers: the database checks it is the caller's). */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { subscriberKeys } from '../keys'

export const SUBSCRIBERS_PAGE_SIZE = 25

export type SubscriberRow = {
  id: string
  email: string
  confirmed_at: string
  source_name: string | null
  status: string
  counted: boolean
  not_counted_reason: string | null
  reason_label: string | null
  price: number | null
}

export async function getSubscribers(campaignId: string, search: string, page: number): Promise<SubscriberRow[]> {
  const { data, error } = await supabase.rpc(
    'campaign_subscribers',
    {
      p_campaign_id: campaignId,
      p_search: search || undefined,
      p_limit: SUBSCRIBERS_PAGE_SIZE,
      p_offset: page * SUBSCRIBERS_PAGE_SIZE,
    },
    { get: true },
  )
  if (error) throw error
  return (data ?? []) as SubscriberRow[]
}

export const subscribersQueryOptions = (campaignId: string, search: string, page: number) =>
  queryOptions({
    queryKey: subscriberKeys.list(campaignId, search, page),
    queryFn: () => getSubscribers(campaignId, search, page),
    placeholderData: keepPreviousData,
  })

export const useSubscribersQuery = (campaignId: string, search: string, page: number) =>
  useQuery(subscribersQueryOptions(campaignId, search, page))
