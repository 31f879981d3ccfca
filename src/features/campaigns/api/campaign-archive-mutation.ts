/** Archives a campaign: no new subscribers, reservations already made are honoured, history stays. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'
import { campaignKeys } from '../keys'

export async function archiveCampaign(campaignId: string) {
  const { error } = await supabase.rpc('archive_campaign', { p_campaign_id: campaignId })
  if (error) throw error
}

export function useCampaignArchiveMutation({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: archiveCampaign,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: campaignKeys.all })
      toast.success('Newsletter archived')
      onSuccess?.()
    },
    onError: (error: Error) => toast.error(`Failed to archive the newsletter: ${error.message}`),
  })
}
