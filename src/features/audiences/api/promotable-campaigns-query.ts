/** Active newsletters a publisher can promote with a per-newsletter campaign link. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { audienceKeys } from '../keys'

export async function getPromotableCampaigns() {
  const { data, error } = await supabase
    .from('campaigns')
    .select('id, name')
    .eq('status', 'active')
    .order('name')
    .limit(200)
  if (error) throw new Error(error.message)
  return data ?? []
}

export const promotableCampaignsQueryOptions = () =>
  queryOptions({ queryKey: audienceKeys.promotableCampaigns(), queryFn: getPromotableCampaigns })

export const usePromotableCampaignsQuery = () => useQuery(promotableCampaignsQueryOptions())
