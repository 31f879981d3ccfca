/** Campaigns waiting for an admin (pending_review), oldest first, with the advertiser's name. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { reviewKeys } from '../keys'

export async function getReviewCampaigns() {
  const { data, error } = await supabase
    .from('campaigns')
    .select(
      'id, name, description, website_url, category, price_per_subscriber, budget_total, status, created_at, advertiser:profiles!campaigns_advertiser_id_fkey(full_name)',
    )
    .eq('status', 'pending_review')
    .order('created_at', { ascending: true })
    .limit(100)
  if (error) throw error
  return data ?? []
}

export type ReviewCampaign = Awaited<ReturnType<typeof getReviewCampaigns>>[number]

export const reviewCampaignsQueryOptions = () =>
  queryOptions({ queryKey: reviewKeys.campaigns(), queryFn: getReviewCampaigns })

export const useReviewCampaignsQuery = () => useQuery(reviewCampaignsQueryOptions())
