/** Submit a newsletter for review: a new campaign row, always `pending_review` until an admin approves it. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from '@/lib/toast'
import { supabase } from '@/lib/supabase'
import { campaignKeys } from '../keys'
import type { CampaignFormValues } from '../campaign-schema'

export type CampaignCreateVariables = CampaignFormValues & { advertiserId: string }

export async function createCampaign(vars: CampaignCreateVariables) {
  const { data, error } = await supabase
    .from('campaigns')
    .insert({
      advertiser_id: vars.advertiserId,
      name: vars.name,
      description: vars.description || null,
      image_url: vars.imageUrl || null,
      category: vars.category,
      website_url: vars.websiteUrl,
      price_per_subscriber: vars.pricePerSubscriber,
      budget_total: vars.budgetTotal,
      partner_mode: vars.partnerMode,
      status: 'pending_review',
    })
    .select('id, name, status')
    .single()
  if (error) throw error
  return data
}

type Options = { onSuccess?: (campaign: { id: string; name: string }) => void; onError?: (error: Error) => void }

export function useCampaignCreateMutation({ onSuccess, onError }: Options = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createCampaign,
    onSuccess: async (campaign) => {
      await queryClient.invalidateQueries({ queryKey: campaignKeys.all })
      onSuccess?.(campaign)
    },
    onError: (error: Error) => {
      if (onError) onError(error)
      else toast.error(`Failed to submit the newsletter: ${error.message}`)
    },
  })
}
