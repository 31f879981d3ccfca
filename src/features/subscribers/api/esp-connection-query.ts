/** The campaign's email-tool connection (provider and list), or null; the key never leaves Vault. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { subscriberKeys } from '../keys'

export type EspConnection = {
  id: string
  provider: string
  target_id: string
  target_name: string
  created_at: string
}

export async function getEspConnection(campaignId: string): Promise<EspConnection | null> {
  const { data, error } = await supabase
    .from('esp_connections')
    .select('id, provider, target_id, target_name, created_at')
    .eq('campaign_id', campaignId)
    .maybeSingle()
  if (error) throw error
  return data
}

export const espConnectionQueryOptions = (campaignId: string) =>
  queryOptions({ queryKey: subscriberKeys.espConnection(campaignId), queryFn: () => getEspConnection(campaignId) })

export const useEspConnectionQuery = (campaignId: string) => useQuery(espConnectionQueryOptions(campaignId))
