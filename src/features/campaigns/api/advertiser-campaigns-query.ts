/** The signed-in advertiser's campaigns, newest first, with what the overview and analytics need. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import type { Tables } from '@/types/database.types'
import { campaignKeys } from '../keys'

export type MyCampaign = Pick<
  Tables<'campaigns'>,
  | 'id'
  | 'name'
  | 'category'
  | 'image_url'
  | 'status'
  | 'review_note'
  | 'price_per_subscriber'
  | 'budget_total'
  | 'budget_spent'
  | 'created_at'
  | 'partner_mode'
>

export async function getMyCampaigns(advertiserId: string): Promise<MyCampaign[]> {
  const { data, error } = await supabase
    .from('campaigns')
    .select(
      'id, name, category, image_url, status, review_note, price_per_subscriber, budget_total, budget_spent, created_at, partner_mode',
    )
    .eq('advertiser_id', advertiserId)
    .order('created_at', { ascending: false })
  if (error) throw error
  return data ?? []
}

export const myCampaignsQueryOptions = (advertiserId: string) =>
  queryOptions({ queryKey: campaignKeys.mine(advertiserId), queryFn: () => getMyCampaigns(advertiserId) })

export const useMyCampaignsQuery = (advertiserId: string) => useQuery(myCampaignsQueryOptions(advertiserId))
