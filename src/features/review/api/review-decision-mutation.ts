/**
 * An admin's decision on a source or a campaign, through the admin functions (they check the caller is an
 * admin, require a reason to reject or ban, store it as the owner-visible note and write the audit log).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from '@/lib/toast'
import { supabase } from '@/lib/supabase'
import { adminQueryRoot } from '@/lib/admin-query-root'

export type ReviewSubject = 'source' | 'campaign'
export type ReviewDecisionVariables = { subject: ReviewSubject; id: string; status: string; reason: string }

export async function decideReview({ subject, id, status, reason }: ReviewDecisionVariables) {
  const { error } =
    subject === 'source'
      ? await supabase.rpc('admin_set_source_status', { p_source_id: id, p_status: status, p_reason: reason })
      : await supabase.rpc('admin_set_campaign_status', { p_campaign_id: id, p_status: status, p_reason: reason })
  if (error) throw error
}

type Options = { onSuccess?: (vars: ReviewDecisionVariables) => void; onError?: (error: Error) => void }

export function useReviewDecisionMutation({ onSuccess, onError }: Options = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: decideReview,
    onSuccess: async (_data, vars) => {
      await queryClient.invalidateQueries({ queryKey: adminQueryRoot })
      onSuccess?.(vars)
    },
    onError: (error: Error) => {
      if (onError) onError(error)
      else toast.error(`Failed to save the decision: ${error.message}`)
    },
  })
}
