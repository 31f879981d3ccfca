/** The campaign analytics opens on: the advertiser's most recent active one (`my_default_campaign`). */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { analyticsKeys } from '../keys'

export async function getDefaultCampaign(): Promise<string | null> {
  const { data, error } = await supabase.rpc('my_default_campaign', undefined, { get: true })
  if (error) throw new Error(error.message)
  return data ?? null
}

export const defaultCampaignQueryOptions = (userId: string) =>
  queryOptions({ queryKey: analyticsKeys.defaultCampaign(userId), queryFn: getDefaultCampaign })

export const useDefaultCampaignQuery = (userId: string, enabled = true) =>
  useQuery({ ...defaultCampaignQueryOptions(userId), enabled })
