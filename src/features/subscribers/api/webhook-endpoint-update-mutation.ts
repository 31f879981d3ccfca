/** Pauses, resumes or deletes one of the advertiser's endpoints (row-level security: only their own). */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'
import { subscriberKeys } from '../keys'

export type WebhookEndpointUpdateVariables = { id: string } & ({ enabled: boolean } | { remove: true })

export async function updateWebhookEndpoint(vars: WebhookEndpointUpdateVariables) {
  const query =
    'remove' in vars
      ? supabase.from('webhook_endpoints').delete().eq('id', vars.id)
      : supabase.from('webhook_endpoints').update({ enabled: vars.enabled }).eq('id', vars.id)
  const { error } = await query
  if (error) throw error
}

export function useWebhookEndpointUpdateMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateWebhookEndpoint,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriberKeys.endpoints() }),
    onError: (error: Error) => toast.error(`Failed to change the endpoint: ${error.message}`),
  })
}
