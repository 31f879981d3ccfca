/** The publisher's payout requests, newest first, with the transfer reference once paid. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { publisherKeys } from '../keys'

export async function getPayoutRequests(userId: string) {
  const { data, error } = await supabase
    .from('payout_requests')
    .select('id, amount, status, created_at, paid_at, transfer_reference')
    .eq('publisher_id', userId)
    .order('created_at', { ascending: false })
    .limit(50)
  if (error) throw new Error(error.message)
  return data ?? []
}

export const payoutRequestsQueryOptions = (userId: string) =>
  queryOptions({ queryKey: publisherKeys.payouts(userId), queryFn: () => getPayoutRequests(userId) })

export const usePayoutRequestsQuery = (userId: string) => useQuery(payoutRequestsQueryOptions(userId))
