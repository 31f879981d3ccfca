/** The newest revision of a campaign's public fields (pending, approved or rejected with the admin's note). */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { campaignKeys } from '../keys'

export async function getCampaignRevision(campaignId: string) {
  const { data, error } = await supabase
    .from('content_revisions')
    .select('id, status, changes, review_note, created_at, decided_at')
    .eq('subject_type', 'campaign')
    .eq('subject_id', campaignId)
    .order('created_at', { ascending: false })
    .limit(1)
    .maybeSingle()
  if (error) throw error
  return data
}

export const campaignRevisionQueryOptions = (campaignId: string) =>
  queryOptions({ queryKey: campaignKeys.revision(campaignId), queryFn: () => getCampaignRevision(campaignId) })

export const useCampaignRevisionQuery = (campaignId: string) => useQuery(campaignRevisionQueryOptions(campaignId))
