/**
 * Everything live or banned, for admins to act on after review: sources (approved, verified, live, banned)
 * or newsletters (active, paused, banned), searched by name, a page at a time with an exact count.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { reviewKeys } from '../keys'

export const CATALOG_PAGE_SIZE = 20
export type CatalogKind = 'sources' | 'campaigns'
export type CatalogVariables = { kind: CatalogKind; search: string; page: number }
export type CatalogItem = {
  id: string
  name: string
  status: string
  owner: string | null
  owner_id: string | null
  created_at: string
}

export async function getCatalog({ kind, search, page }: CatalogVariables) {
  const from = page * CATALOG_PAGE_SIZE
  const term = search.trim().replace(/[%_,()]/g, ' ')
  if (kind === 'sources') {
    let q = supabase
      .from('audience_sources')
      .select(
        'id, name, status, created_at, owner_id:publisher_id, owner:profiles!audience_sources_publisher_id_fkey(full_name)',
        {
          count: 'exact',
        },
      )
      .in('status', ['approved', 'verified', 'live', 'banned'])
      .order('created_at', { ascending: false })
      .range(from, from + CATALOG_PAGE_SIZE - 1)
    if (term) q = q.ilike('name', `%${term}%`)
    const { data, error, count } = await q
    if (error) throw error
    return {
      items: (data ?? []).map((r) => ({ ...r, owner: r.owner?.full_name ?? null })) as CatalogItem[],
      total: count ?? 0,
    }
  }
  let q = supabase
    .from('campaigns')
    .select(
      'id, name, status, created_at, owner_id:advertiser_id, owner:profiles!campaigns_advertiser_id_fkey(full_name)',
      { count: 'exact' },
    )
    .in('status', ['active', 'paused', 'banned'])
    .order('created_at', { ascending: false })
    .range(from, from + CATALOG_PAGE_SIZE - 1)
  if (term) q = q.ilike('name', `%${term}%`)
  const { data, error, count } = await q
  if (error) throw error
  return {
    items: (data ?? []).map((r) => ({ ...r, owner: r.owner?.full_name ?? null })) as CatalogItem[],
    total: count ?? 0,
  }
}

export const catalogQueryOptions = (vars: CatalogVariables) =>
  queryOptions({
    queryKey: [...reviewKeys.catalog(), vars],
    queryFn: () => getCatalog(vars),
    placeholderData: keepPreviousData,
  })

export const useCatalogQuery = (vars: CatalogVariables) => useQuery(catalogQueryOptions(vars))
