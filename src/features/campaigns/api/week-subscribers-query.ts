/**
 * The advertiser's campaigns over the last 7 days, as the database counts them (`campaign_week_figures`):
 * confirmed subscribers (everyone who confirmed, paid or free) and paid subscribers (charged). One call for
 * every campaign; the overview only formats the two numbers, under their catalogue labels.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { campaignKeys } from '../keys'

export type WeekFigures = { confirmed: number; paid: number }

export async function getWeekSubscribers(): Promise<Record<string, WeekFigures>> {
  const { data, error } = await supabase.rpc('campaign_week_figures', undefined, { get: true })
  if (error) throw error
  return Object.fromEntries(
    (data ?? []).map((r) => [
      r.campaign_id,
      { confirmed: Number(r.confirmed_subscribers), paid: Number(r.paid_subscribers) },
    ]),
  )
}

export const weekSubscribersQueryOptions = (campaignIds: string[]) =>
  queryOptions({
    queryKey: campaignKeys.weekSubscribers(campaignIds),
    queryFn: () => getWeekSubscribers(),
    enabled: campaignIds.length > 0,
  })

export const useWeekSubscribersQuery = (campaignIds: string[]) => useQuery(weekSubscribersQueryOptions(campaignIds))
