/** The signed-in publisher's own sources, in every status, with the admin's note. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import type { Tables } from '@/types/database.types'
import { audienceKeys } from '../keys'

export type PublisherSource = Tables<'audience_sources'>

export async function getPublisherSources(userId: string): Promise<PublisherSource[]> {
  const { data, error } = await supabase
    .from('audience_sources')
    .select('*')
    .eq('publisher_id', userId)
    .order('created_at', { ascending: false })
  if (error) throw new Error(error.message)
  return data ?? []
}

export const publisherSourcesQueryOptions = (userId: string) =>
  queryOptions({ queryKey: audienceKeys.ownSources(userId), queryFn: () => getPublisherSources(userId) })

export const usePublisherSourcesQuery = (userId: string) => useQuery(publisherSourcesQueryOptions(userId))
