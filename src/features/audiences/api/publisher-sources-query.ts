/** The signed-in publisher's own sources, in every status, with the admin's note. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import type { Tables } from '@/types/database.types'
import { audienceKeys } from '../keys'

export type PublisherSource = Tables<'audience_sources'>

export async function getMySources(userId: string): Promise<PublisherSource[]> {
  const { data, error } = await supabase
    .from('audience_sources')
    .select('*')
    .eq('publisher_id', userId)
    .order('created_at', { ascending: false })
  if (error) throw new Error(error.message)
  return data ?? []
}

export const mySourcesQueryOptions = (userId: string) =>
  queryOptions({ queryKey: audienceKeys.ownSources(userId), queryFn: () => getMySources(userId) })

export const useMySourcesQuery = (userId: string) => useQuery(mySourcesQueryOptions(userId))
