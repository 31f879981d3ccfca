/** The advertiser's charged subscribers still in screening: what a dispute can flag (disputable_subscribers). */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { disputeKeys } from '../keys'

export async function getDisputableSubscribers() {
  const { data, error } = await supabase.rpc('disputable_subscribers', {}, { get: true })
  if (error) throw error
  return data ?? []
}

export type DisputableSubscriber = Awaited<ReturnType<typeof getDisputableSubscribers>>[number]

export const disputableSubscribersQueryOptions = () =>
  queryOptions({ queryKey: disputeKeys.disputable(), queryFn: getDisputableSubscribers })

export const useDisputableSubscribersQuery = (enabled = true) =>
  useQuery({ ...disputableSubscribersQueryOptions(), enabled })
