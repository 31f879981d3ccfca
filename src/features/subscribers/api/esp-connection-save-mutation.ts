/**
 * Saves the campaign's email-tool connection through save_esp_connection, which stores the key in Vault (never
 * readable again) and, when asked, queues the subscribers who already confirmed. The form's checks are
 * @rules/esp-connection's; the database checks them again.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { ESP_KEY_MESSAGES, espKeyProblem, isEspProviderName } from '@rules/esp-connection'
import { supabase } from '@/lib/supabase'
import { subscriberKeys } from '../keys'

export const espConnectionSchema = z
  .object({
    provider: z.string(),
    apiKey: z.string(),
    targetId: z.string(),
    backfill: z.boolean(),
  })
  .superRefine((values, ctx) => {
    if (!isEspProviderName(values.provider))
      return void ctx.addIssue({ code: 'custom', path: ['provider'], message: ESP_KEY_MESSAGES.provider })
    const problem = espKeyProblem(values.provider, values.apiKey)
    if (problem) return void ctx.addIssue({ code: 'custom', path: ['apiKey'], message: problem })
    if (!values.targetId.trim()) ctx.addIssue({ code: 'custom', path: ['targetId'], message: ESP_KEY_MESSAGES.target })
  })
export type EspConnectionValues = z.infer<typeof espConnectionSchema>

export type EspConnectionSaveVariables = EspConnectionValues & { campaignId: string; targetName: string }

export async function saveEspConnection(v: EspConnectionSaveVariables): Promise<number> {
  const { data, error } = await supabase.rpc('save_esp_connection', {
    p_campaign_id: v.campaignId,
    p_provider: v.provider,
    p_api_key: v.apiKey.trim(),
    p_target_id: v.targetId,
    p_target_name: v.targetName,
    p_backfill: v.backfill,
  })
  if (error) throw error
  return Number(data ?? 0)
}

type Options = { onSuccess?: (queued: number) => void; onError?: (error: Error) => void }

export function useEspConnectionSaveMutation({ onSuccess, onError }: Options = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveEspConnection,
    onSuccess: async (queued, v) => {
      await queryClient.invalidateQueries({ queryKey: subscriberKeys.espConnection(v.campaignId) })
      await queryClient.invalidateQueries({ queryKey: [...subscriberKeys.all, 'esp-deliveries'] })
      onSuccess?.(queued)
    },
    onError: (error: Error) => onError?.(error),
  })
}
