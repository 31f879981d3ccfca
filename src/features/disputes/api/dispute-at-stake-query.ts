/** What an open dispute puts at stake, from the database (dispute_at_stake): readers, charges on hold, earnings. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { disputeKeys } from '../keys'

export async function getDisputeAtStake(id: string) {
  const { data, error } = await supabase.rpc('dispute_at_stake', { p_dispute_id: id }, { get: true })
  if (error) throw error
  return data?.[0] ?? { readers: 0, readers_on_hold: 0, charged: 0, earnings: 0 }
}

export const disputeAtStakeQueryOptions = (id: string) =>
  queryOptions({ queryKey: disputeKeys.stake(id), queryFn: () => getDisputeAtStake(id) })

export const useDisputeAtStakeQuery = (id: string) => useQuery(disputeAtStakeQueryOptions(id))
