/**
 * Revisions of listed sources and newsletters (`admin_revisions`): pending ones oldest first, or the latest
 * decided, each with the live value of every field it changes beside the proposed one, and its version (raised by
 * each edit of the owner's), which a decision sends back.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { reviewKeys } from '../keys'

export type RevisionStatus = 'pending' | 'approved' | 'rejected'
export type FieldValues = Record<string, string | null>

export type Revision = {
  id: string
  subjectType: 'audience_source' | 'campaign'
  subjectId: string
  subjectName: string
  ownerEmail: string | null
  changes: FieldValues
  current: FieldValues
  status: RevisionStatus
  reviewNote: string | null
  createdAt: string
  decidedAt: string | null
  version: number
  updatedAt: string
}

const asFields = (value: unknown): FieldValues =>
  value && typeof value === 'object'
    ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v == null ? null : String(v)]))
    : {}

export async function getRevisions(status: RevisionStatus): Promise<Revision[]> {
  const { data, error } = await supabase.rpc('admin_revisions', { p_status: status }, { get: true })
  if (error) throw error
  return (data ?? []).map((r) => ({
    id: r.id,
    subjectType: r.subject_type === 'campaign' ? 'campaign' : 'audience_source',
    subjectId: r.subject_id,
    subjectName: r.subject_name,
    ownerEmail: r.owner_email,
    changes: asFields(r.changes),
    current: asFields(r.current_values),
    status: r.status as RevisionStatus,
    reviewNote: r.review_note,
    createdAt: r.created_at,
    decidedAt: r.decided_at,
    version: r.version,
    updatedAt: r.updated_at,
  }))
}

export const revisionsQueryOptions = (status: RevisionStatus) =>
  queryOptions({ queryKey: reviewKeys.revisions(status), queryFn: () => getRevisions(status) })

export const useRevisionsQuery = (status: RevisionStatus) => useQuery(revisionsQueryOptions(status))
