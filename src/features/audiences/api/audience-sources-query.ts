/**
 * The directory's pages: public sources (approved, verified, live), newest first, 24 a page, filtered by
 * name and category. Pages come from the `audience_sources_public_created_idx` index; the directory never
 * loads every row.
 */
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { audienceKeys, type AudienceFilters } from '../keys'
import { PUBLIC_SOURCE_STATUSES } from '@/lib/vocabulary-catalog'

export const AUDIENCE_PAGE_SIZE = 24

export const AUDIENCE_SOURCE_COLUMNS =
  'id, name, description, image_url, platform, status, category, created_at, url, quality_confirmation_rate, quality_counted_share'

export type AudienceSourceCard = {
  id: string
  name: string
  description: string | null
  image_url: string | null
  platform: string
  status: string
  category: string | null
  created_at: string
  url: string | null
  /** 30-day figures, present once the source has 20 counted clicks (refreshed by the database every 10 minutes). */
  quality_confirmation_rate?: number | null
  quality_counted_share?: number | null
}

/** Escapes the LIKE wildcards and PostgREST's reserved characters in a visitor's search text. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/[,()]/g, ' ')}%`

export function applyAudienceFilters<
  Q extends { ilike: (column: string, pattern: string) => Q; eq: (column: string, value: string) => Q },
>(query: Q, { search, category }: AudienceFilters): Q {
  let next = query
  if (search.trim()) next = next.ilike('name', likePattern(search.trim()))
  // Categories are one list of slugs (src/lib/vocabulary.ts); an old link's 'Technology' still finds them.
  if (category) next = next.eq('category', category.trim().toLowerCase())
  return next
}

export async function getAudienceSources(filters: AudienceFilters, page: number): Promise<AudienceSourceCard[]> {
  const from = page * AUDIENCE_PAGE_SIZE
  // Each order has its own partial index (newest; confirmation rate; counted share), so no sort reads every row.
  const qualityColumn =
    filters.sort === 'confirmation'
      ? 'quality_confirmation_rate'
      : filters.sort === 'counted'
        ? 'quality_counted_share'
        : null
  let query = supabase
    .from('audience_sources')
    .select(AUDIENCE_SOURCE_COLUMNS)
    .in('status', [...PUBLIC_SOURCE_STATUSES])
  if (qualityColumn) query = query.order(qualityColumn, { ascending: false, nullsFirst: false })
  query = query.order('created_at', { ascending: false }).order('id', { ascending: false })
  const { data, error } = await applyAudienceFilters(query, filters).range(from, from + AUDIENCE_PAGE_SIZE - 1)
  if (error) throw new Error(error.message || 'Could not load audience sources.')
  return (data ?? []) as AudienceSourceCard[]
}

export const audienceSourcesQueryOptions = (filters: AudienceFilters) =>
  infiniteQueryOptions({
    queryKey: audienceKeys.list(filters),
    queryFn: ({ pageParam }) => getAudienceSources(filters, pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, _all, lastPage) => (last.length === AUDIENCE_PAGE_SIZE ? lastPage + 1 : undefined),
  })

export const useAudienceSourcesQuery = (filters: AudienceFilters) =>
  useInfiniteQuery(audienceSourcesQueryOptions(filters))
