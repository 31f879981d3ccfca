/** Every dispute for the admin, with the publisher's answer and its deadline: open ones first (oldest first), then the latest decided. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { disputeKeys } from '../keys'

export async function getAdminDisputes() {
  const { data, error } = await supabase
    .from('disputes')
    .select(
      'id, kind, reason, status, decision_note, refunded, refunded_subscribers, created_at, decided_at, audience_source_id, ' +
        'answer_due_at, answer, answer_links, answered_at, ' +
        'source:audience_sources(name, status), advertiser:profiles!disputes_advertiser_id_fkey(full_name), publisher:profiles!disputes_publisher_id_fkey(full_name), ' +
        'subscribers:dispute_subscriptions(count)',
    )
    .order('status', { ascending: true })
    .order('created_at', { ascending: true })
    .limit(100)
  if (error) throw error
  return (data ?? []) as unknown as AdminDispute[]
}

export type AdminDispute = {
  id: string
  kind: 'subscribers' | 'source'
  reason: string
  status: 'open' | 'upheld' | 'rejected'
  decision_note: string | null
  refunded: number
  refunded_subscribers: number
  created_at: string
  decided_at: string | null
  audience_source_id: string
  answer_due_at: string
  answer: string | null
  answer_links: string[]
  answered_at: string | null
  source: { name: string; status: string } | null
  advertiser: { full_name: string | null } | null
  publisher: { full_name: string | null } | null
  subscribers: { count: number }[]
}

export const adminDisputesQueryOptions = () =>
  queryOptions({ queryKey: disputeKeys.admin(), queryFn: getAdminDisputes })

export const useAdminDisputesQuery = () => useQuery(adminDisputesQueryOptions())
