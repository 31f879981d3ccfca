/**
 * Mark a payout paid with the transfer reference (admin_mark_payout_paid, at aal2: re-checks the publisher's
 * available balance, writes the ledger row, logs it and emails the publisher).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from '@/lib/toast'
import { transferReferenceProblem } from '@rules/payout'
import { supabase } from '@/lib/supabase'
import { adminKeys } from '../keys'

export type PayoutPaidVariables = { payoutId: string; reference: string }

/** The form's rule (@rules/payout); admin_mark_payout_paid checks the same bounds again, with the same words. */
export const transferReferenceError = transferReferenceProblem

export async function markPayoutPaid({ payoutId, reference }: PayoutPaidVariables) {
  const { error } = await supabase.rpc('admin_mark_payout_paid', { p_payout_id: payoutId, p_reference: reference.trim() })
  if (error) throw error
}

type Options = { onSuccess?: () => void; onError?: (error: Error) => void }

export function usePayoutPaidMutation({ onSuccess, onError }: Options = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: markPayoutPaid,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.all })
      onSuccess?.()
    },
    onError: (error: Error) => {
      if (onError) onError(error)
      else toast.error(`Failed to mark the payout paid: ${error.message}`)
    },
  })
}
