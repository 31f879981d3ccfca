/** The advertiser's webhook endpoints (never their secrets: the database does not let the API read them). */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { subscriberKeys } from '../keys'

export type WebhookEndpoint = {
  id: string
  url: string
  campaign_id: string | null
  description: string | null
  enabled: boolean
  created_at: string
}

export async function getWebhookEndpoints(): Promise<WebhookEndpoint[]> {
  const { data, error } = await supabase
    .from('webhook_endpoints')
    .select('id, url, campaign_id, description, enabled, created_at')
    .order('created_at', { ascending: false })
  if (error) throw error
  return data ?? []
}

export const webhookEndpointsQueryOptions = () =>
  queryOptions({ queryKey: subscriberKeys.endpoints(), queryFn: getWebhookEndpoints })

export const useWebhookEndpointsQuery = () => useQuery(webhookEndpointsQueryOptions())
