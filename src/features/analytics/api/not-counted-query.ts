/** What did not count for one campaign, by kind and reason with the database's own label (`not_counted_figures`). */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import type { DateRange } from '@/lib/date-range'
import { analyticsKeys } from '../keys'
import { scopeArgs, scopeKey, type FigureScope } from '../scope'

export type NotCountedRow = { kind: 'click' | 'subscription'; reason: string; label: string; total: number }

export async function getNotCounted(campaignId: FigureScope, range: DateRange): Promise<NotCountedRow[]> {
  const { data, error } = await supabase.rpc(
    'not_counted_figures',
    { ...scopeArgs(campaignId), p_from: range.from, p_to: range.to },
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

export const notCountedQueryOptions = (campaignId: FigureScope, range: DateRange) =>
  queryOptions({
    queryKey: analyticsKeys.notCounted(scopeKey(campaignId), range),
    queryFn: () => getNotCounted(campaignId, range),
  })

export const useNotCountedQuery = (campaignId: FigureScope, range: DateRange) =>
  useQuery(notCountedQueryOptions(campaignId, range))
