/** Adds an endpoint; the database checks the URL (https, public address) and answers the secret, once. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { subscriberKeys } from '../keys'

export type WebhookEndpointCreateVariables = { url: string; campaignId: string | null }

export async function createWebhookEndpoint({ url, campaignId }: WebhookEndpointCreateVariables) {
  const { data, error } = await supabase.rpc('create_webhook_endpoint', { p_url: url, p_campaign_id: campaignId ?? undefined })
  if (error) throw error
  const created = (data ?? [])[0]
  if (!created) throw new Error('The endpoint was not created')
  return created
}

type Options = { onSuccess?: (created: { id: string; secret: string }) => void; onError?: (error: Error) => void }

export function useWebhookEndpointCreateMutation({ onSuccess, onError }: Options = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createWebhookEndpoint,
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: subscriberKeys.endpoints() })
      onSuccess?.(created)
    },
    onError: (error: Error) => onError?.(error),
  })
}
