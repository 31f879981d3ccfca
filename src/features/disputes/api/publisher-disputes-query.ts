/**
 * The signed-in publisher's disputes (publisher_disputes): the advertiser's reason, the readers and earnings at stake
 * (computed by the database), the 72-hour deadline, whether they can still answer, their answer and the outcome.
 * Those still waiting for an answer come first. With an id, that one dispute (null when it is not theirs).
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { disputeKeys } from '../keys'

export async function getPublisherDisputes() {
  const { data, error } = await supabase.rpc('publisher_disputes', {}, { get: true })
  if (error) throw error
  return data ?? []
}

export type PublisherDispute = Awaited<ReturnType<typeof getPublisherDisputes>>[number]

export async function getPublisherDispute(id: string): Promise<PublisherDispute | null> {
  const { data, error } = await supabase.rpc('publisher_disputes', { p_dispute_id: id }, { get: true })
  if (error) throw error
  return data?.[0] ?? null
}

export const publisherDisputesQueryOptions = () =>
  queryOptions({ queryKey: disputeKeys.publisher(), queryFn: getPublisherDisputes })

export const usePublisherDisputesQuery = () => useQuery(publisherDisputesQueryOptions())

export const publisherDisputeQueryOptions = (id: string) =>
  queryOptions({ queryKey: disputeKeys.publisherOne(id), queryFn: () => getPublisherDispute(id) })

export const usePublisherDisputeQuery = (id: string) => useQuery(publisherDisputeQueryOptions(id))
