/** The delivery log of one endpoint, newest first: status, attempts, the last response code or error. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { subscriberKeys } from '../keys'

export type WebhookDelivery = {
  id: string
  event_type: string
  status: string
  attempts: number
  response_status: number | null
  last_error: string | null
  next_attempt_at: string
  created_at: string
}

export async function getWebhookDeliveries(endpointId: string): Promise<WebhookDelivery[]> {
  const { data, error } = await supabase
    .from('webhook_deliveries')
    .select('id, event_type, status, attempts, response_status, last_error, next_attempt_at, created_at')
    .eq('endpoint_id', endpointId)
    .order('created_at', { ascending: false })
    .limit(20)
  if (error) throw error
  return data ?? []
}

export const webhookDeliveriesQueryOptions = (endpointId: string) =>
  queryOptions({
    queryKey: subscriberKeys.deliveries(endpointId),
    queryFn: () => getWebhookDeliveries(endpointId),
    staleTime: 0,
  })

export const useWebhookDeliveriesQuery = (endpointId: string) => useQuery(webhookDeliveriesQueryOptions(endpointId))
