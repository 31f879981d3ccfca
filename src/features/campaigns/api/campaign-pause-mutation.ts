/** Pause or resume one of the advertiser's campaigns; only active ↔ paused, enforced by the database. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from '@/lib/toast'
import { supabase } from '@/lib/supabase'
import { campaignKeys } from '../keys'

export type CampaignPauseVariables = { campaignId: string; paused: boolean }

export async function setCampaignPaused({ campaignId, paused }: CampaignPauseVariables) {
  const { data, error } = await supabase.rpc('set_campaign_paused', { p_campaign_id: campaignId, p_paused: paused })
  if (error) throw error
  return data
}

type Options = { onSuccess?: (vars: CampaignPauseVariables) => void; onError?: (error: Error) => void }

export function useCampaignPauseMutation({ onSuccess, onError }: Options = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: setCampaignPaused,
    onSuccess: async (_data, vars) => {
      await queryClient.invalidateQueries({ queryKey: campaignKeys.all })
      onSuccess?.(vars)
    },
    onError: (error: Error, vars) => {
      if (onError) onError(error)
      else toast.error(`Failed to ${vars.paused ? 'pause' : 'resume'} the campaign: ${error.message}`)
    },
  })
}
