/**
 * Records a campaign page view on the visitor's click session (SPEC §7 link_clicks update, done by the
 * `record_campaign_page_view` database function: page views, a unique view once per click, source counters).
 */
import { supabase } from '@/lib/supabase'

export type CampaignPageViewVariables = { clickId: string; campaignId: string }

export async function recordCampaignPageView({ clickId, campaignId }: CampaignPageViewVariables) {
  const { data, error } = await supabase.rpc('record_campaign_page_view', {
    p_click_id: clickId,
    p_campaign_id: campaignId,
  })
  if (error) throw new Error(error.message)
  return data
}
