/** Publishers' payout requests, open ones first, then the latest handled. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { payoutKeys } from '../keys'

export async function getAllPayoutRequests() {
  const { data, error } = await supabase
    .from('payout_requests')
    .select(
      'id, amount, status, created_at, paid_at, transfer_reference, failure_reason, failed_at, attempts, publisher:profiles!payout_requests_publisher_id_fkey(full_name)',
    )
    .order('status', { ascending: false })
    .order('created_at', { ascending: true })
    .limit(100)
  if (error) throw error
  return data ?? []
}

export type AnyPayoutRequest = Awaited<ReturnType<typeof getAllPayoutRequests>>[number]

export const allPayoutRequestsQueryOptions = () =>
  queryOptions({ queryKey: payoutKeys.allRequests(), queryFn: getAllPayoutRequests })

export const useAllPayoutRequestsQuery = () => useQuery(allPayoutRequestsQueryOptions())
