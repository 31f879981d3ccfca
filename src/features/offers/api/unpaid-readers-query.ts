/**
 * The readers of the publisher's sources who confirmed but were not paid, or were refunded
 * (`publisher_unpaid_readers`), a page at a time, with the reason code and, for a refund, its stated reason.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { offerKeys } from '../keys'

export const UNPAID_READERS_PAGE_SIZE = 25

export type UnpaidReader = {
  id: string
  confirmedAt: string
  sourceName: string
  campaignName: string
  reason: string
  detail: string | null
  lostEarning: number | null
}
export type UnpaidReadersPage = { readers: UnpaidReader[]; total: number }

export async function getUnpaidReaders(page: number): Promise<UnpaidReadersPage> {
  const { data, error } = await supabase.rpc(
    'publisher_unpaid_readers',
    {
      p_limit: UNPAID_READERS_PAGE_SIZE,
      p_offset: page * UNPAID_READERS_PAGE_SIZE,
    },
    { get: true },
  )
  if (error) throw new Error(error.message)
  const rows = data ?? []
  return {
    total: rows[0]?.total_count ?? 0,
    readers: rows.map((r) => ({
      id: r.subscription_id,
      confirmedAt: r.confirmed_at,
      sourceName: r.source_name,
      campaignName: r.campaign_name,
      reason: r.reason,
      detail: r.detail,
      lostEarning: r.lost_earning == null ? null : Number(r.lost_earning),
    })),
  }
}

export const unpaidReadersQueryOptions = (userId: string, page: number) =>
  queryOptions({
    queryKey: offerKeys.unpaidReaders(userId, page),
    queryFn: () => getUnpaidReaders(page),
    placeholderData: keepPreviousData,
  })

export const useUnpaidReadersQuery = (userId: string, page: number) => useQuery(unpaidReadersQueryOptions(userId, page))
