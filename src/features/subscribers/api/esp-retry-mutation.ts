/** The Retry button of a failed delivery: queued again now, with a fresh day of retries. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'
import { subscriberKeys } from '../keys'

export async function retryEspDelivery(deliveryId: string) {
  const { error } = await supabase.rpc('retry_esp_delivery', { p_delivery_id: deliveryId })
  if (error) throw error
}

export function useEspRetryMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: retryEspDelivery,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...subscriberKeys.all, 'esp-deliveries'] }),
    onError: (error: Error) => toast.error(`Failed to retry: ${error.message}`),
  })
}
