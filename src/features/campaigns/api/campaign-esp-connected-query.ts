/**
 * Whether a campaign has an email tool connected (esp_connections, readable by its owner): paying per engaged reader
 * needs one, and the database refuses the rule without it (private.guard_pay_rule).
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { campaignKeys } from '../keys'

export async function getCampaignEspConnected(campaignId: string) {
  const { data, error } = await supabase
    .from('esp_connections')
    .select('provider')
    .eq('campaign_id', campaignId)
    .maybeSingle()
  if (error) throw error
  return data?.provider ?? null
}

export const useCampaignEspConnectedQuery = (campaignId: string) =>
  useQuery(
    queryOptions({
      queryKey: campaignKeys.espConnected(campaignId),
      queryFn: () => getCampaignEspConnected(campaignId),
    }),
  )
