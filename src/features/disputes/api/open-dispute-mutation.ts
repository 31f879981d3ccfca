/** Open a dispute about subscribers of one source, or the whole source (open_dispute checks it all again). */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from '@/lib/toast'
import { disputeReasonProblem } from '@rules/dispute'
import { supabase } from '@/lib/supabase'
import { disputeKeys } from '../keys'

export type OpenDisputeVariables = { reason: string; subscriptionIds: string[] | null; sourceId: string | null }

/** The form's rule (@rules/dispute); open_dispute checks the same bounds again, with the same words. */
export const disputeReasonError = disputeReasonProblem

export async function openDispute({ reason, subscriptionIds, sourceId }: OpenDisputeVariables) {
  const { data, error } = await supabase.rpc('open_dispute', {
    p_reason: reason.trim(),
    p_subscription_ids: subscriptionIds ?? undefined,
    p_source_id: sourceId ?? undefined,
  })
  if (error) throw error
  return data
}

export function useOpenDisputeMutation({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: openDispute,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: disputeKeys.all })
      toast.success('Dispute opened', { description: 'An admin will look at the evidence; you will get an email with the decision.' })
      onSuccess?.()
    },
    onError: (error: Error) => toast.error(`Failed to open the dispute: ${error.message}`),
  })
}
