/**
 * The publisher's standing with each newsletter's partner program (`publisher_partnerships`): per source and each
 * newsletter by approval (or that decided about the source), its status (null: not applied), the price its readers
 * pay and what it earns (computed by the database), and whether the source may promote it (else its readers are
 * not paid: "not a partner").
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { offerKeys } from '../keys'

export type Partnership = {
  campaignId: string
  campaignName: string
  sourceId: string
  sourceName: string
  partnerMode: string
  status: string | null
  price: number
  earning: number
  ownPrice: boolean
  message: string | null
  decidedAt: string | null
  mayPromote: boolean
  /** Readers of the last 30 days through this source who confirmed and were not paid: not a partner. */
  unpaidReaders: number
}

export async function getPartnerships(): Promise<Partnership[]> {
  const { data, error } = await supabase.rpc('publisher_partnerships', undefined, { get: true })
  if (error) throw new Error(error.message)
  return (data ?? []).map((r) => ({
    campaignId: r.campaign_id,
    campaignName: r.campaign_name,
    sourceId: r.source_id,
    sourceName: r.source_name,
    partnerMode: r.partner_mode,
    status: r.status,
    price: Number(r.price),
    earning: Number(r.earning),
    ownPrice: r.own_price,
    message: r.message,
    decidedAt: r.decided_at,
    mayPromote: r.may_promote,
    unpaidReaders: r.unpaid_readers,
  }))
}

/** The key of one (newsletter, source) pair in the map the offers read. */
export const pairKey = (campaignId: string, sourceId: string) => `${campaignId}:${sourceId}`

export const partnershipsQueryOptions = (userId: string) =>
  queryOptions({ queryKey: offerKeys.partnerships(userId), queryFn: getPartnerships })

/** The standings by pairKey, as the offers read them. */
export const usePartnershipsQuery = (userId: string) =>
  useQuery({
    ...partnershipsQueryOptions(userId),
    select: (rows) => new Map(rows.map((r) => [pairKey(r.campaignId, r.sourceId), r])),
  })

/** The pairs whose link still brings readers who are not paid (not a partner), for the dashboard's notice. */
export const useUnpaidPartnerLinksQuery = (userId: string) =>
  useQuery({
    ...partnershipsQueryOptions(userId),
    select: (rows) => rows.filter((r) => !r.mayPromote && r.unpaidReaders > 0),
  })
