/**
 * The publisher applies with one of its sources to a newsletter by approval, with a short message
 * (`apply_to_campaign`, which checks the caller, the source's owner and the message's length again).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from '@/lib/toast'
import { supabase } from '@/lib/supabase'
import { offerKeys } from '../keys'

/** The longest message apply_to_campaign takes. */
export const APPLICATION_MESSAGE_MAX = 500

export type ApplyVariables = { campaignId: string; campaignName: string; sourceId: string; message: string }

export async function applyToCampaign({ campaignId, sourceId, message }: ApplyVariables) {
  const { error } = await supabase.rpc('apply_to_campaign', {
    p_campaign_id: campaignId,
    p_source_id: sourceId,
    p_message: message.trim() || undefined,
  })
  if (error) throw new Error(error.message)
}

export function useApplyMutation({ onError }: { onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: applyToCampaign,
    onSuccess: async (_data, variables) => {
      await queryClient.invalidateQueries({ queryKey: offerKeys.all })
      toast.success(`You applied to ${variables.campaignName}`, {
        description: 'The advertiser is emailed; you get an email with the answer.',
      })
    },
    onError: (error: Error) => {
      onError?.(error)
      toast.error(`Failed to apply: ${error.message}`)
    },
  })
}
