/**
 * The latest revision of each of the publisher's sources (row-level security: authors read their own), so a
 * source edited after approval shows "Changes waiting for review" with the proposed text, or the decision and note.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import type { OwnRevision } from '@/components/pending-revision'
import { audienceKeys } from '../keys'

export async function getMySourceRevisions(userId: string): Promise<Map<string, OwnRevision>> {
  const { data, error } = await supabase
    .from('content_revisions')
    .select('subject_id, status, changes, review_note, created_at')
    .eq('subject_type', 'audience_source')
    .eq('author_id', userId)
    .order('created_at', { ascending: false })
    .limit(200)
  if (error) throw error
  const latest = new Map<string, OwnRevision>()
  for (const r of data ?? []) if (!latest.has(r.subject_id)) latest.set(r.subject_id, r)
  return latest
}

export const mySourceRevisionsQueryOptions = (userId: string) =>
  queryOptions({ queryKey: audienceKeys.ownRevisions(userId), queryFn: () => getMySourceRevisions(userId) })

export const useMySourceRevisionsQuery = (userId: string) => useQuery(mySourceRevisionsQueryOptions(userId))
