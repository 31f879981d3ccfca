/**
 * An admin's decision on a dispute (decide_dispute, at aal2: upheld refunds the subscribers still in
 * screening through the ledger and emails both sides). Upholding can also ban the source, through the same
 * admin function the review queue uses (it refunds that source's other subscribers in screening too).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { toast } from '@/lib/toast'
import { supabase } from '@/lib/supabase'
import { disputeKeys } from '../keys'

export type DecideDisputeVariables = {
  disputeId: string
  decision: 'upheld' | 'rejected'
  note: string
  banSourceId: string | null
}

/** The decision form: a note both sides read (decide_dispute requires it too), and whether upholding bans the source. */
export const disputeDecisionSchema = z.object({
  note: z.string().refine((value) => value.trim() !== '', { error: 'Explain the decision: both sides read the note' }),
  ban: z.boolean(),
})
export type DisputeDecisionValues = z.infer<typeof disputeDecisionSchema>

export async function decideDispute({ disputeId, decision, note, banSourceId }: DecideDisputeVariables) {
  const { data, error } = await supabase.rpc('decide_dispute', {
    p_dispute_id: disputeId,
    p_decision: decision,
    p_note: note.trim(),
  })
  if (error) throw error
  if (decision === 'upheld' && banSourceId) {
    const ban = await supabase.rpc('admin_set_source_status', {
      p_source_id: banSourceId,
      p_status: 'banned',
      p_reason: note.trim(),
    })
    if (ban.error) throw new Error(`The dispute was upheld, but banning the source failed: ${ban.error.message}`)
  }
  return data as { refunded: number; refunded_subscribers: number }
}

export function useDecideDisputeMutation({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: decideDispute,
    onSuccess: async (data, vars) => {
      await queryClient.invalidateQueries({ queryKey: disputeKeys.all })
      toast.success(
        vars.decision === 'upheld'
          ? `Dispute upheld: ${Number(data.refunded).toFixed(2)} credits refunded for ${data.refunded_subscribers} subscribers`
          : 'Dispute rejected',
      )
      onSuccess?.()
    },
    onError: (error: Error) => toast.error(`Failed to decide the dispute: ${error.message}`),
  })
}
