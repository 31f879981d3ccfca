/** The newsletter or source an admin analyses: its name, status and owner (admins read every row). */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { adminQueryRoot } from '@/lib/admin-query-root'

export type SubjectKind = 'campaign' | 'source'
export type AnalyticsSubject = { id: string; name: string; status: string; ownerId: string; ownerName: string | null }

export async function getAnalyticsSubject(kind: SubjectKind, id: string): Promise<AnalyticsSubject | null> {
  const { data, error } =
    kind === 'campaign'
      ? await supabase
          .from('campaigns')
          .select('id, name, status, owner_id:advertiser_id, owner:profiles!campaigns_advertiser_id_fkey(full_name)')
          .eq('id', id)
          .maybeSingle()
      : await supabase
          .from('audience_sources')
          .select(
            'id, name, status, owner_id:publisher_id, owner:profiles!audience_sources_publisher_id_fkey(full_name)',
          )
          .eq('id', id)
          .maybeSingle()
  if (error) throw error
  if (!data) return null
  return {
    id: data.id,
    name: data.name,
    status: data.status,
    ownerId: data.owner_id,
    ownerName: data.owner?.full_name ?? null,
  }
}

export const analyticsSubjectQueryOptions = (kind: SubjectKind, id: string) =>
  queryOptions({
    queryKey: [...adminQueryRoot, 'analytics-subject', kind, id],
    queryFn: () => getAnalyticsSubject(kind, id),
  })

export const useAnalyticsSubjectQuery = (kind: SubjectKind, id: string) =>
  useQuery(analyticsSubjectQueryOptions(kind, id))
