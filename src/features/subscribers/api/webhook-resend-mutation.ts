/** The resend button: the same event (same webhook-id) goes out again with a fresh retry schedule. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'
import { subscriberKeys } from '../keys'

export async function resendWebhookDelivery(deliveryId: string) {
  const { error } = await supabase.rpc('resend_webhook_delivery', { p_delivery_id: deliveryId })
  if (error) throw error
}

export function useWebhookResendMutation(endpointId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: resendWebhookDelivery,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriberKeys.deliveries(endpointId) }),
    onError: (error: Error) => toast.error(`Failed to resend: ${error.message}`),
  })
}
