/**
 * A campaign's confirmed subscribers (confirmed by email, not refunded: the one definition of src/lib/metrics.ts) and,
 * beside them, its refunded readers, counted by the database (`campaign_subscriber_totals`).
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { subscriberKeys } from '../keys'

export type SubscriberTotals = { confirmed: number; refunded: number }

export async function getSubscriberTotals(campaignId: string): Promise<SubscriberTotals> {
  const { data, error } = await supabase
    .rpc('campaign_subscriber_totals', { p_campaign_id: campaignId }, { get: true })
    .single()
  if (error) throw error
  return { confirmed: Number(data.confirmed), refunded: Number(data.refunded) }
}

export const subscriberTotalsQueryOptions = (campaignId: string) =>
  queryOptions({
    queryKey: subscriberKeys.totals(campaignId),
    queryFn: () => getSubscriberTotals(campaignId),
  })

export const useSubscriberTotalsQuery = (campaignId: string) => useQuery(subscriberTotalsQueryOptions(campaignId))
