/**
 * The publisher's payout requests, newest first, with the transfer reference once paid, the reason once failed (and
 * whether it was sent at all), and what Stripe reversed.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { payoutKeys } from '../keys'

export async function getMyPayoutRequests(userId: string) {
  const { data, error } = await supabase
    .from('payout_requests')
    .select(
      'id, amount, status, created_at, paid_at, transfer_reference, failure_reason, failed_at, failed_before_transfer, amount_reversed, reversed_at',
    )
    .eq('publisher_id', userId)
    .order('created_at', { ascending: false })
    .limit(50)
  if (error) throw new Error(error.message)
  return data ?? []
}

export const myPayoutRequestsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: payoutKeys.requests(userId),
    queryFn: () => getMyPayoutRequests(userId),
    // A requested payout is sent within moments: follow it until Stripe answered, so the reference shows.
    refetchInterval: (query) =>
      query.state.data?.some((p) => p.status === 'requested' || p.status === 'sending') ? 3000 : false,
  })

export const useMyPayoutRequestsQuery = (userId: string) => useQuery(myPayoutRequestsQueryOptions(userId))
