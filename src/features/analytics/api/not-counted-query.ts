/** What did not count for one campaign, by kind and reason with the database's own label (`not_counted_figures`). */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import type { DateRange } from '@/lib/date-range'
import { analyticsKeys } from '../keys'

export type NotCountedRow = { kind: 'click' | 'subscription'; reason: string; label: string; total: number }

export async function getNotCounted(campaignId: string, range: DateRange): Promise<NotCountedRow[]> {
  const { data, error } = await supabase.rpc(
    'not_counted_figures',
    {
      p_campaign_id: campaignId,
      p_from: range.from,
      p_to: range.to,
    },
    { get: true },
  )
  if (error) throw new Error(error.message)
  return (data ?? []).map((row) => ({
    kind: row.kind as NotCountedRow['kind'],
    reason: row.reason,
    label: row.label,
    total: Number(row.total),
  }))
}

export const notCountedQueryOptions = (campaignId: string, range: DateRange) =>
  queryOptions({
    queryKey: analyticsKeys.notCounted(campaignId, range),
    queryFn: () => getNotCounted(campaignId, range),
  })

export const useNotCountedQuery = (campaignId: string, range: DateRange) =>
  useQuery(notCountedQueryOptions(campaignId, range))
