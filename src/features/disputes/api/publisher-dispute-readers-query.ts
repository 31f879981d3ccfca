/**
 * The readers a dispute about the publisher's source is about (publisher_dispute_readers): newsletter, confirmed at,
 * the earning, and whether it is on hold, refunded or kept. Never the reader's email (PRODUCT "Subscriptions").
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { disputeKeys } from '../keys'

export async function getPublisherDisputeReaders(id: string) {
  const { data, error } = await supabase.rpc('publisher_dispute_readers', { p_dispute_id: id }, { get: true })
  if (error) throw error
  return data ?? []
}

export type DisputedReader = Awaited<ReturnType<typeof getPublisherDisputeReaders>>[number]

export const publisherDisputeReadersQueryOptions = (id: string) =>
  queryOptions({ queryKey: disputeKeys.readers(id), queryFn: () => getPublisherDisputeReaders(id) })

export const usePublisherDisputeReadersQuery = (id: string) => useQuery(publisherDisputeReadersQueryOptions(id))
