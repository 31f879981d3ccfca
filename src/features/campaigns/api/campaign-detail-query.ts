/** One of the advertiser's campaigns with what managing it needs (public fields, budget and commitments). */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { campaignKeys } from '../keys'

const COLUMNS =
  'id, name, description, image_url, website_url, category, status, review_note, approved_at, price_per_subscriber, budget_total, budget_spent, budget_reserved, reservations_open, pay_rule, engagement_window_days, partner_mode'

export async function getCampaignDetail(campaignId: string) {
  const { data, error } = await supabase.from('campaigns').select(COLUMNS).eq('id', campaignId).single()
  if (error) throw error
  return data
}

export type CampaignDetail = Awaited<ReturnType<typeof getCampaignDetail>>

export const campaignDetailQueryOptions = (campaignId: string) =>
  queryOptions({ queryKey: campaignKeys.detail(campaignId), queryFn: () => getCampaignDetail(campaignId) })

export const useCampaignDetailQuery = (campaignId: string) => useQuery(campaignDetailQueryOptions(campaignId))
