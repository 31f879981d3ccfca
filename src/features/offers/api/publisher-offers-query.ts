/**
 * Every active newsletter a publisher can promote (`publisher_offers`): what the publisher earns per paid
 * subscriber (computed by the database from the one fee rule), category, funding, room left and confirmation rate.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { offerKeys } from '../keys'

export type Offer = {
  campaignId: string
  name: string
  description: string | null
  category: string | null
  price: number
  earning: number
  fundingStatus: string
  subscribersLeft: number
  /** Percent of the last 30 days' subscriptions with a known outcome that confirmed; null when too few. */
  confirmationRate: number | null
  /** What the newsletter pays for (campaigns.pay_rule) and, when 'engaged', its window in days. */
  payRule: string
  engagementWindowDays: number
}

export async function getPublisherOffers(): Promise<Offer[]> {
  const { data, error } = await supabase.rpc('publisher_offers', undefined, { get: true })
  if (error) throw new Error(error.message)
  const ids = (data ?? []).map((r) => r.campaign_id)
  // Each offer's pay rule, as the newsletter states it (campaigns are readable while active).
  const rules = new Map<string, { pay_rule: string; engagement_window_days: number }>()
  if (ids.length) {
    const { data: rows, error: rulesError } = await supabase
      .from('campaigns')
      .select('id, pay_rule, engagement_window_days')
      .in('id', ids)
    if (rulesError) throw new Error(rulesError.message)
    for (const r of rows ?? []) rules.set(r.id, r)
  }
  return (data ?? []).map((r) => ({
    campaignId: r.campaign_id,
    name: r.name,
    description: r.description,
    category: r.category,
    price: Number(r.price),
    earning: Number(r.earning),
    fundingStatus: r.funding_status,
    subscribersLeft: Number(r.subscribers_left),
    confirmationRate: r.confirmation_rate == null ? null : Number(r.confirmation_rate),
    payRule: rules.get(r.campaign_id)?.pay_rule ?? 'confirmed',
    engagementWindowDays: rules.get(r.campaign_id)?.engagement_window_days ?? 14,
  }))
}

export const publisherOffersQueryOptions = (userId: string) =>
  queryOptions({ queryKey: offerKeys.list(userId), queryFn: getPublisherOffers })

export const usePublisherOffersQuery = (userId: string) => useQuery(publisherOffersQueryOptions(userId))
