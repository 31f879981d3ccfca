/** Audience sources waiting for an admin: pending, pending_review and under_review, oldest first. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { reviewKeys } from '../keys'

export const SOURCE_REVIEW_STATUSES = ['pending', 'pending_review', 'under_review'] as const

export async function getReviewSources() {
  const { data, error } = await supabase
    .from('audience_sources')
    .select('id, name, description, url, platform, category, status, created_at, publisher:profiles(full_name)')
    .in('status', [...SOURCE_REVIEW_STATUSES])
    .order('created_at', { ascending: true })
    .limit(100)
  if (error) throw error
  return data ?? []
}

export type ReviewSource = Awaited<ReturnType<typeof getReviewSources>>[number]

export const reviewSourcesQueryOptions = () =>
  queryOptions({ queryKey: reviewKeys.sources(), queryFn: getReviewSources })

export const useReviewSourcesQuery = () => useQuery(reviewSourcesQueryOptions())
