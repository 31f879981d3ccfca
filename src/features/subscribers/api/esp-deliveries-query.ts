/**
 * Where each listed subscriber stands in the advertiser's email tool (esp_deliveries of one page of the list;
 * RLS lets the campaign's owner read them). While any is queued it is read again every few seconds, so
 * "Delivered" appears without a reload (delivery takes well under a minute). With each, what the email tool reported
 * back about the subscriber's opens and clicks during screening.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { subscriberKeys } from '../keys'

export type EspDelivery = {
  id: string
  subscription_id: string
  status: string
  attempts: number
  last_error: string | null
  delivered_at: string | null
  /** Opened or clicked, machines included, as the email tool last reported; null until read back. */
  engaged: boolean | null
  /** Counts where the tool gives them (Kit, MailerLite); null where it reports rates only. */
  opens: number | null
  clicks: number | null
  engagement_checked_at: string | null
  /**
   * A counted open or click (a person's, where the tool tells machines apart; else a click): what "engaged" means on
   * every screen and what engagement-verified pay charges for. Null before a read.
   */
  counted_engagement: boolean | null
  /** A refunded reader's removal from the tool (issue 38): null until asked, then queued, removed or failed. */
  removal_status?: string | null
  /** The tool's own words for the last failed removal attempt. */
  removal_error?: string | null
  removed_at?: string | null
}

export const ESP_DELIVERIES_REFRESH_MS = 3000

export async function getEspDeliveries(subscriptionIds: string[]): Promise<EspDelivery[]> {
  if (subscriptionIds.length === 0) return []
  const { data, error } = await supabase
    .from('esp_deliveries')
    .select(
      'id, subscription_id, status, attempts, last_error, delivered_at, engaged, opens, clicks, engagement_checked_at, counted_engagement, removal_status, removal_error, removed_at',
    )
    .in('subscription_id', subscriptionIds)
  if (error) throw error
  return data ?? []
}

export const espDeliveriesQueryOptions = (subscriptionIds: string[]) =>
  queryOptions({
    queryKey: subscriberKeys.espDeliveries(subscriptionIds),
    queryFn: () => getEspDeliveries(subscriptionIds),
    refetchInterval: (query) =>
      query.state.data?.some((d) => d.status === 'queued' || d.removal_status === 'queued')
        ? ESP_DELIVERIES_REFRESH_MS
        : false,
  })

export const useEspDeliveriesQuery = (subscriptionIds: string[]) => useQuery(espDeliveriesQueryOptions(subscriptionIds))
