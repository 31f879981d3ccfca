/**
 * Mark a payout paid with the transfer reference (admin_mark_payout_paid, at aal2: re-checks the publisher's
 * available balance, writes the ledger row, logs it and emails the publisher).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { transferReferenceProblem } from '@rules/payout'
import { ruleIssue } from '@/lib/rule-issue'
import { toast } from '@/lib/toast'
import { supabase } from '@/lib/supabase'
import { adminQueryRoot } from '@/lib/admin-query-root'

export type PayoutPaidVariables = { payoutId: string; reference: string }

/** The mark-paid form (@rules/payout); admin_mark_payout_paid checks the same bounds again, with the same words. */
export const markPaidSchema = z.object({
  reference: z
    .string()
    .superRefine(ruleIssue(transferReferenceProblem))
    .transform((value) => value.trim()),
})
export type MarkPaidInput = z.input<typeof markPaidSchema>
export type MarkPaidValues = z.output<typeof markPaidSchema>

export async function markPayoutPaid({ payoutId, reference }: PayoutPaidVariables) {
  const { error } = await supabase.rpc('admin_mark_payout_paid', {
    p_payout_id: payoutId,
    p_reference: reference.trim(),
  })
  if (error) throw error
}

type Options = { onSuccess?: () => void; onError?: (error: Error) => void }

export function usePayoutPaidMutation({ onSuccess, onError }: Options = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: markPayoutPaid,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminQueryRoot })
      onSuccess?.()
    },
    onError: (error: Error) => {
      if (onError) onError(error)
      else toast.error(`Failed to mark the payout paid: ${error.message}`)
    },
  })
}
