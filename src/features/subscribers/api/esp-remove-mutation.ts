/**
 * "Remove from <tool>" beside a refunded reader that was delivered (issue 38): remove_refunded_from_esp queues the
 * removal (the database checks it is the campaign's advertiser, a refunded reader and a delivered one) and
 * deliver-esp performs it with the key from Vault; the list reads the outcome back from esp_deliveries.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'
import { subscriberKeys } from '../keys'

export async function removeRefundedFromEsp(subscriptionId: string) {
  const { error } = await supabase.rpc('remove_refunded_from_esp', { p_subscription_id: subscriptionId })
  if (error) throw error
}

export function useEspRemoveMutation(options: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: removeRefundedFromEsp,
    onSuccess: async () => {
      options.onSuccess?.()
      await queryClient.invalidateQueries({ queryKey: [...subscriberKeys.all, 'esp-deliveries'] })
    },
    onError: (error: Error) => toast.error(`Could not remove the reader: ${error.message}`),
  })
}
