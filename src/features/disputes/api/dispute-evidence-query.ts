/** The evidence of one dispute, computed by the database (admin_dispute_evidence). */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { disputeKeys } from '../keys'

export type ReasonCount = { reason: string; count: number }
export type DisputeEvidence = {
  subscriptions_by_reason: ReasonCount[]
  clicks_by_reason: ReasonCount[]
  timings: {
    flagged: number
    median_click_to_confirm_seconds: number | null
    median_email_to_confirm_seconds: number | null
    under_10_seconds: number
    source_median_click_to_confirm_seconds: number | null
  }
  repeated_visitors: { visitor: string; subscriptions: number }[]
  email_collisions: { canonical_email: string; subscriptions: number }[]
  subscribers: {
    id: string
    email: string
    status: string
    confirmed_at: string | null
    click_to_confirm_seconds: number | null
    email_to_confirm_seconds: number | null
    in_screening: boolean
  }[]
}

export async function getDisputeEvidence(id: string) {
  const { data, error } = await supabase.rpc('admin_dispute_evidence', { p_dispute_id: id }, { get: true })
  if (error) throw error
  return data as unknown as DisputeEvidence
}

export const disputeEvidenceQueryOptions = (id: string) =>
  queryOptions({ queryKey: disputeKeys.evidence(id), queryFn: () => getDisputeEvidence(id) })

export const useDisputeEvidenceQuery = (id: string) => useQuery(disputeEvidenceQueryOptions(id))
