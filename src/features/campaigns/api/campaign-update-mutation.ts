/**
 * Saves a campaign's public fields or its budget. On an approved campaign the database turns public-field
 * edits into a pending revision (the approved version stays live); the budget applies at once, and the
 * database refuses a budget below what is spent, on hold or reserved.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'
import type { TablesUpdate } from '@/types/database.types'
import { campaignKeys } from '../keys'

export type CampaignUpdateVariables = { campaignId: string; changes: TablesUpdate<'campaigns'> }

export async function updateCampaign({ campaignId, changes }: CampaignUpdateVariables) {
  const { error } = await supabase.from('campaigns').update(changes).eq('id', campaignId)
  if (error) throw error
}

type Options = { onSuccess?: () => void; onError?: (error: Error) => void; action: string }

export function useCampaignUpdateMutation({ onSuccess, onError, action }: Options) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateCampaign,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: campaignKeys.all })
      onSuccess?.()
    },
    onError: (error: Error) => {
      if (onError) onError(error)
      else toast.error(`Failed to ${action}: ${error.message}`)
    },
  })
}
