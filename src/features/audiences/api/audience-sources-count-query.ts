/** How many public sources match the filters: a HEAD request with an exact count, no rows transferred. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { audienceKeys, type AudienceFilters } from '../keys'
import { PUBLIC_SOURCE_STATUSES } from '@/lib/vocabulary-catalog'
import { applyAudienceFilters } from './audience-sources-query'

export async function getAudienceSourcesCount(filters: AudienceFilters): Promise<number> {
  const query = supabase
    .from('audience_sources')
    .select('id', { count: 'exact', head: true })
    .in('status', [...PUBLIC_SOURCE_STATUSES])
  const { count, error } = await applyAudienceFilters(query, filters)
  if (error) throw new Error(error.message || 'Could not load audience sources.')
  return count ?? 0
}

export const audienceSourcesCountQueryOptions = (filters: AudienceFilters) =>
  queryOptions({ queryKey: audienceKeys.count(filters), queryFn: () => getAudienceSourcesCount(filters) })

export const useAudienceSourcesCountQuery = (filters: AudienceFilters) =>
  useQuery(audienceSourcesCountQueryOptions(filters))
