/** Disconnects the campaign's email tool: the connection, its queue and the key in Vault are deleted. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'
import { subscriberKeys } from '../keys'

export async function disconnectEsp(campaignId: string) {
  const { error } = await supabase.rpc('disconnect_esp', { p_campaign_id: campaignId })
  if (error) throw error
}

export function useEspDisconnectMutation({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: disconnectEsp,
    onSuccess: async (_data, campaignId) => {
      await queryClient.invalidateQueries({ queryKey: subscriberKeys.espConnection(campaignId) })
      await queryClient.invalidateQueries({ queryKey: [...subscriberKeys.all, 'esp-deliveries'] })
      onSuccess?.()
    },
    onError: (error: Error) => toast.error(`Failed to disconnect: ${error.message}`),
  })
}
