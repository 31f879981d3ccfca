/** The categories of active campaigns, for the filter. Active campaigns are few; only one column is read. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { newsletterKeys } from '../keys'

export async function getCampaignCategories(): Promise<string[]> {
  const { data, error } = await supabase.from('campaigns').select('category').eq('status', 'active').limit(1000)
  if (error) throw new Error(error.message)
  const seen = new Map<string, string>()
  for (const row of data ?? []) {
    const value = (row as { category: string | null }).category?.trim()
    if (value && !seen.has(value.toLowerCase())) seen.set(value.toLowerCase(), value)
  }
  return [...seen.values()].sort((a, b) => a.localeCompare(b))
}

export const campaignCategoriesQueryOptions = () =>
  queryOptions({ queryKey: newsletterKeys.categories(), queryFn: getCampaignCategories })

export const useCampaignCategoriesQuery = () => useQuery(campaignCategoriesQueryOptions())
