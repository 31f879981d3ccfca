/**
 * One newsletter by id. Public pages ask for an active one (anything else is "not found"); the admin preview
 * reads any status, which row-level security allows only to admins.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { newsletterKeys } from '../keys'
import { CAMPAIGN_CARD_COLUMNS, isUuid, type CampaignCard } from './campaign-types'

export async function getCampaign(id: string, preview = false): Promise<CampaignCard | null> {
  if (!isUuid(id)) return null
  let query = supabase.from('campaigns').select(CAMPAIGN_CARD_COLUMNS).eq('id', id)
  if (!preview) query = query.eq('status', 'active')
  const { data, error } = await query.maybeSingle()
  if (error) throw new Error(error.message || 'Could not load this newsletter.')
  return (data as unknown as CampaignCard | null) ?? null
}

export const campaignQueryOptions = (id: string, preview = false) =>
  queryOptions({ queryKey: newsletterKeys.detail(id, preview), queryFn: () => getCampaign(id, preview) })

export const useCampaignQuery = (id: string, { preview = false, enabled = true } = {}) =>
  useQuery({ ...campaignQueryOptions(id, preview), enabled })
