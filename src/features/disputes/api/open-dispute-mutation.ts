/** Open a dispute about subscribers of one source, or the whole source (open_dispute checks it all again). */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { disputeReasonProblem } from '@rules/dispute'
import { toast } from '@/lib/toast'
import { supabase } from '@/lib/supabase'
import { disputeKeys } from '../keys'

export type OpenDisputeVariables = { reason: string; subscriptionIds: string[] | null; sourceId: string | null }

/**
 * The open-dispute form. One message at a time, in the order a person fixes them (the source, what is disputed,
 * then the description, whose bounds come from @rules/dispute); open_dispute checks it all again.
 */
export const openDisputeSchema = z
  .object({ sourceId: z.string(), wholeSource: z.boolean(), subscriptionIds: z.array(z.string()), reason: z.string() })
  .superRefine((values, ctx) => {
    if (!values.sourceId) {
      ctx.addIssue({ code: 'custom', path: ['sourceId'], message: 'Choose the source the subscribers came from' })
    } else if (!values.wholeSource && values.subscriptionIds.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['subscriptionIds'],
        message: 'Tick the subscribers you dispute, or dispute the whole source',
      })
    } else {
      const problem = disputeReasonProblem(values.reason)
      if (problem) ctx.addIssue({ code: 'custom', path: ['reason'], message: problem })
    }
  })
export type OpenDisputeValues = z.infer<typeof openDisputeSchema>

/** What the form's values ask open_dispute for: the whole source, or the ticked subscribers. */
export const openDisputeVariables = (values: OpenDisputeValues): OpenDisputeVariables => ({
  reason: values.reason,
  subscriptionIds: values.wholeSource ? null : values.subscriptionIds,
  sourceId: values.wholeSource ? values.sourceId : null,
})

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
      toast.success('Dispute opened', {
        description: 'An admin will look at the evidence; you will get an email with the decision.',
      })
      onSuccess?.()
    },
    onError: (error: Error) => toast.error(`Failed to open the dispute: ${error.message}`),
  })
}
