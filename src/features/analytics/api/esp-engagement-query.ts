/**
 * Engagement per source of subscribers delivered into an email tool that reports it (beehiiv, Mailchimp,
 * MailerLite): `esp_engagement_figures` computes the rate (engaged per 100 read back), for the advertiser's campaign or
 * the publisher's sources. The figures queries join it to their rows by source.
 */
import { supabase } from '@/lib/supabase'
import type { DateRange } from '@/lib/date-range'

export type SourceEngagement = {
  /** Delivered subscribers whose opens and clicks were read back. */
  checked: number
  engaged: number
  /** 0..100; null before any was read back. */
  rate: number | null
}

/** Source id → its engagement; a source absent from the map has no subscriber in an email tool that reports it. */
export async function getEspEngagement(
  campaignId: string | null,
  range?: DateRange,
): Promise<Map<string, SourceEngagement>> {
  const { data, error } = await supabase.rpc(
    'esp_engagement_figures',
    {
      ...(campaignId ? { p_campaign_id: campaignId } : {}),
      ...(range ? { p_from: range.from, p_to: range.to } : {}),
    },
    { get: true },
  )
  if (error) throw new Error(error.message)
  return new Map(
    (data ?? []).map((r) => [
      r.source_id,
      {
        checked: Number(r.checked),
        engaged: Number(r.engaged),
        rate: r.engagement_rate === null ? null : Number(r.engagement_rate),
      },
    ]),
  )
}
