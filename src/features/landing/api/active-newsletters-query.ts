/** A few active newsletters (campaigns) for the landing page, newest first. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { landingKeys } from '../keys'

export type LandingNewsletter = {
  id: string
  name: string
  description: string | null
  category: string | null
  image_url: string | null
}

export async function getActiveNewsletters(limit: number): Promise<LandingNewsletter[]> {
  const { data, error } = await supabase
    .from('campaigns')
    .select('id, name, description, category, image_url')
    .eq('status', 'active')
    .order('created_at', { ascending: false })
    .limit(limit)
  if (error) throw error
  return (data ?? []) as LandingNewsletter[]
}

export const activeNewslettersQueryOptions = (limit: number) =>
  queryOptions({ queryKey: landingKeys.activeNewsletters(limit), queryFn: () => getActiveNewsletters(limit) })

export const useActiveNewslettersQuery = (limit: number) => useQuery(activeNewslettersQueryOptions(limit))
