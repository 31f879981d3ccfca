/** The publisher's payout requests, newest first, with the transfer reference once paid. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { payoutKeys } from '../keys'

export async function getMyPayoutRequests(userId: string) {
  const { data, error } = await supabase
    .from('payout_requests')
    .select('id, amount, status, created_at, paid_at, transfer_reference')
    .eq('publisher_id', userId)
    .order('created_at', { ascending: false })
    .limit(50)
  if (error) throw new Error(error.message)
  return data ?? []
}

export const myPayoutRequestsQueryOptions = (userId: string) =>
  queryOptions({ queryKey: payoutKeys.requests(userId), queryFn: () => getMyPayoutRequests(userId) })

export const useMyPayoutRequestsQuery = (userId: string) => useQuery(myPayoutRequestsQueryOptions(userId))
