/** The test-event button: queues a signed webhook.test event, delivered within a minute. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'
import { subscriberKeys } from '../keys'

export async function sendTestWebhook(endpointId: string) {
  const { error } = await supabase.rpc('send_test_webhook', { p_endpoint_id: endpointId })
  if (error) throw error
}

export function useWebhookTestMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: sendTestWebhook,
    onSuccess: async (_data, endpointId) => {
      await queryClient.invalidateQueries({ queryKey: subscriberKeys.deliveries(endpointId) })
      toast.success('Test event queued: it arrives within a minute')
    },
    onError: (error: Error) => toast.error(`Failed to send a test event: ${error.message}`),
  })
}
