/**
 * A newsletter's partner program as its advertiser sees it (`campaign_partner_sources`): every source that applied,
 * was decided about or brought it traffic, applications first, with its standing, its price and what its publisher
 * earns (computed by the database from the one fee rule), whether it may promote the newsletter, and its quality as
 * the public directory shows it (30-day counted clicks and confirmation rate), its disputes and paid subscribers.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { partnerKeys } from '../keys'

export type PartnerSource = {
  sourceId: string
  sourceName: string
  platform: string
  /** null: the source never applied and was never decided about (it promoted an open newsletter). */
  status: string | null
  priceOverride: number | null
  price: number
  earning: number
  message: string | null
  appliedAt: string | null
  decidedAt: string | null
  mayPromote: boolean
  countedClicks: number | null
  confirmationRate: number | null
  /** Of its subscribers read back from email tools that report engagement, the % who opened or clicked. */
  engagedRate: number | null
  disputes: number
  disputesUpheld: number
  paidSubscribers: number
}

export async function getPartnerSources(campaignId: string): Promise<PartnerSource[]> {
  const { data, error } = await supabase.rpc('campaign_partner_sources', { p_campaign_id: campaignId }, { get: true })
  if (error) throw new Error(error.message)
  return (data ?? []).map((r) => ({
    sourceId: r.source_id,
    sourceName: r.source_name,
    platform: r.platform,
    status: r.status,
    priceOverride: r.price_override == null ? null : Number(r.price_override),
    price: Number(r.price),
    earning: Number(r.earning),
    message: r.message,
    appliedAt: r.applied_at,
    decidedAt: r.decided_at,
    mayPromote: r.may_promote,
    countedClicks: r.counted_clicks,
    confirmationRate: r.confirmation_rate == null ? null : Number(r.confirmation_rate),
    engagedRate: r.engaged_rate == null ? null : Number(r.engaged_rate),
    disputes: r.disputes,
    disputesUpheld: r.disputes_upheld,
    paidSubscribers: r.paid_subscribers,
  }))
}

export const partnerSourcesQueryOptions = (campaignId: string) =>
  queryOptions({ queryKey: partnerKeys.sources(campaignId), queryFn: () => getPartnerSources(campaignId) })

export const usePartnerSourcesQuery = (campaignId: string) => useQuery(partnerSourcesQueryOptions(campaignId))
