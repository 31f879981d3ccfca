/**
 * Day-by-day clicks and confirmed subscribers of one campaign, and the not-counted totals by reason.
 * Read from the rows the advertiser may see (link_clicks that opened the campaign, its subscriptions),
 * only the columns needed, over a bounded window: there is no aggregate function for advertisers yet,
 * so the cap keeps a very busy campaign from downloading its whole history (the summary figures come
 * from campaign_source_stats, which is exact).
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { analyticsKeys } from '../keys'
import { summariseActivity, type CampaignActivity } from '../activity'

export const ACTIVITY_DAYS = 14
export const ACTIVITY_ROW_CAP = 5000

export async function getCampaignActivity(campaignId: string, days = ACTIVITY_DAYS, now = new Date()): Promise<CampaignActivity> {
  const since = new Date(now.getTime() - days * 24 * 60 * 60 * 1000).toISOString()
  const [clicks, subscriptions] = await Promise.all([
    supabase
      .from('link_clicks')
      .select('created_at, counted, not_counted_reason')
      .eq('campaign_id', campaignId)
      .gte('created_at', since)
      .order('created_at', { ascending: false })
      .limit(ACTIVITY_ROW_CAP),
    supabase
      .from('newsletter_subscriptions')
      .select('confirmed_at, counted, not_counted_reason')
      .eq('campaign_id', campaignId)
      .eq('status', 'confirmed')
      .gte('confirmed_at', since)
      .order('confirmed_at', { ascending: false })
      .limit(ACTIVITY_ROW_CAP),
  ])
  if (clicks.error) throw clicks.error
  if (subscriptions.error) throw subscriptions.error
  return summariseActivity({
    clicks: (clicks.data ?? []).map((c) => ({ at: c.created_at, counted: c.counted, reason: c.not_counted_reason })),
    subscribers: (subscriptions.data ?? []).flatMap((s) =>
      s.confirmed_at ? [{ at: s.confirmed_at, counted: s.counted, reason: s.not_counted_reason }] : [],
    ),
    days,
    now,
    truncated: (clicks.data?.length ?? 0) >= ACTIVITY_ROW_CAP || (subscriptions.data?.length ?? 0) >= ACTIVITY_ROW_CAP,
  })
}

export const campaignActivityQueryOptions = (campaignId: string, days = ACTIVITY_DAYS) =>
  queryOptions({ queryKey: analyticsKeys.activity(campaignId, days), queryFn: () => getCampaignActivity(campaignId, days) })

export const useCampaignActivityQuery = (campaignId: string) => useQuery(campaignActivityQueryOptions(campaignId))
