/** Mark a payout paid (admin_mark_payout_paid re-checks the publisher's available balance and writes the ledger). */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from '@/lib/toast'
import { supabase } from '@/lib/supabase'
import { adminKeys } from '../keys'

export async function markPayoutPaid(payoutId: string) {
  const { error } = await supabase.rpc('admin_mark_payout_paid', { p_payout_id: payoutId })
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
