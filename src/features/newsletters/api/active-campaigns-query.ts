/**
 * Browse Newsletters: active campaigns with the advertiser's full name (SPEC §7), newest first, a page at a
 * time, filtered by name and category. Each page also carries the exact number of matches.
 */
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { newsletterKeys, type NewsletterFilters } from '../keys'
import { CAMPAIGN_CARD_COLUMNS, type CampaignCard } from './campaign-types'

export const NEWSLETTER_PAGE_SIZE = 12

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

export type CampaignPage = { rows: CampaignCard[]; total: number }

export async function getActiveCampaigns(filters: NewsletterFilters, page: number): Promise<CampaignPage> {
  const from = page * NEWSLETTER_PAGE_SIZE
  let query = supabase
    .from('campaigns')
    .select(CAMPAIGN_CARD_COLUMNS, { count: 'exact' })
    .eq('status', 'active')
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
  const search = filters.search.trim()
  if (search) query = query.ilike('name', `%${escapeLike(search)}%`)
  // One list of category slugs (src/lib/vocabulary.ts); an old link's 'Technology' still finds them.
  if (filters.category) query = query.eq('category', filters.category.trim().toLowerCase())
  const { data, error, count } = await query.range(from, from + NEWSLETTER_PAGE_SIZE - 1)
  if (error) throw new Error(error.message || 'Could not load newsletters.')
  return { rows: (data ?? []) as unknown as CampaignCard[], total: count ?? 0 }
}

export const activeCampaignsQueryOptions = (filters: NewsletterFilters) =>
  infiniteQueryOptions({
    queryKey: newsletterKeys.list(filters),
    queryFn: ({ pageParam }) => getActiveCampaigns(filters, pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, all, lastPage) =>
      all.reduce((n, p) => n + p.rows.length, 0) < last.total && last.rows.length > 0 ? lastPage + 1 : undefined,
  })

export const useActiveCampaignsQuery = (filters: NewsletterFilters) =>
  useInfiniteQuery(activeCampaignsQueryOptions(filters))
