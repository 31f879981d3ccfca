/**
 * Send a failed payout again (admin_retry_payout, at aal2: re-checks the publisher's available balance and payout
 * account, then send-payouts makes a new Stripe transfer).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { adminQueryRoot } from '@/lib/admin-query-root'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'

export async function retryPayout({ payoutId }: { payoutId: string }) {
  const { error } = await supabase.rpc('admin_retry_payout', { p_payout_id: payoutId })
  if (error) throw error
}

export function usePayoutRetryMutation({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: retryPayout,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminQueryRoot })
      onSuccess?.()
    },
    onError: (error: Error) => toast.error(`Failed to retry the payout: ${error.message}`),
  })
}
