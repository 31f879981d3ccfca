/**
 * The advertiser approves (maybe at the source's own price), declines an application or blocks a source
 * (`decide_partner`, which checks the caller, the newsletter's owner and the price range again).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from '@/lib/toast'
import { supabase } from '@/lib/supabase'
import { partnerKeys } from '../keys'

export type PartnerDecision = 'approved' | 'declined' | 'blocked'
export type DecidePartnerVariables = {
  campaignId: string
  sourceId: string
  sourceName: string
  status: PartnerDecision
  priceOverride: number | null
}

export async function decidePartner({ campaignId, sourceId, status, priceOverride }: DecidePartnerVariables) {
  const { error } = await supabase.rpc('decide_partner', {
    p_campaign_id: campaignId,
    p_source_id: sourceId,
    p_status: status,
    p_price_override: priceOverride ?? undefined,
  })
  if (error) throw new Error(error.message)
}

const done: Record<PartnerDecision, (name: string) => string> = {
  approved: (name) => `${name} is a partner`,
  declined: (name) => `You declined ${name}'s application`,
  blocked: (name) => `${name} is blocked: its readers are no longer paid`,
}

export function useDecidePartnerMutation({ onError }: { onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: decidePartner,
    onSuccess: async (_data, variables) => {
      await queryClient.invalidateQueries({ queryKey: partnerKeys.all })
      toast.success(done[variables.status](variables.sourceName))
    },
    onError: (error: Error) => {
      onError?.(error)
      toast.error(`Failed to save the decision: ${error.message}`)
    },
  })
}
