/**
 * The disputes the signed-in user is a side of: an advertiser's own, or those about a publisher's sources
 * (row-level security decides which), newest first.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { disputeKeys } from '../keys'

export async function getMyDisputes() {
  const { data, error } = await supabase
    .from('disputes')
    .select(
      'id, kind, reason, status, decision_note, refunded, refunded_subscribers, earnings_cancelled, created_at, decided_at, source:audience_sources(name)',
    )
    .order('created_at', { ascending: false })
    .limit(50)
  if (error) throw error
  return data ?? []
}

export type MyDispute = Awaited<ReturnType<typeof getMyDisputes>>[number]

export const myDisputesQueryOptions = () => queryOptions({ queryKey: disputeKeys.mine(), queryFn: getMyDisputes })

export const useMyDisputesQuery = () => useQuery(myDisputesQueryOptions())
