/** A few of the newest public audience sources, for the landing page (the same statuses the directory lists). */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { landingKeys } from '../keys'

export const PUBLIC_SOURCE_STATUSES = ['approved', 'verified', 'live'] as const

export type LandingSource = {
  id: string
  name: string
  category: string | null
  platform: string
  image_url: string | null
}

export async function getVerifiedSources(limit: number): Promise<LandingSource[]> {
  const { data, error } = await supabase
    .from('audience_sources')
    .select('id, name, category, platform, image_url')
    .in('status', [...PUBLIC_SOURCE_STATUSES])
    .order('created_at', { ascending: false })
    .limit(limit)
  if (error) throw error
  return (data ?? []) as LandingSource[]
}

export const verifiedSourcesQueryOptions = (limit: number) =>
  queryOptions({ queryKey: landingKeys.verifiedSources(limit), queryFn: () => getVerifiedSources(limit) })

export const useVerifiedSourcesQuery = (limit: number) => useQuery(verifiedSourcesQueryOptions(limit))
