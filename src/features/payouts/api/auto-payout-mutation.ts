/** Turn automatic payouts on or off (`set_auto_payout`; turning on needs a ready account, the database checks it). */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'
import { payoutKeys } from '../keys'

export type AutoPayoutVariables = { userId: string; enabled: boolean }

export async function setAutoPayout({ enabled }: AutoPayoutVariables) {
  const { error } = await supabase.rpc('set_auto_payout', { p_enabled: enabled })
  if (error) throw new Error(error.message)
}

export function useAutoPayoutMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: setAutoPayout,
    onSuccess: async (_data, { userId, enabled }) => {
      await queryClient.invalidateQueries({ queryKey: payoutKeys.account(userId) })
      toast.success(enabled ? 'Automatic payouts on' : 'Automatic payouts off')
    },
    onError: (error) => toast.error(`Failed to change automatic payouts: ${error.message}`),
  })
}
