/** The headline figures of one campaign over a date range, summed by the database (`figure_totals`). */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toCredits } from '@/lib/format'
import type { DateRange } from '@/lib/date-range'
import { analyticsKeys } from '../keys'
import { scopeArgs, scopeKey, type FigureScope } from '../scope'

export type FigureTotals = {
  views: number
  clicks: number
  conversions: number
  ctr: number
  spend: number
  /** When the click figures were last brought up to date. */
  updatedAt: string | null
}

export async function getFigureTotals(campaignId: FigureScope, range: DateRange): Promise<FigureTotals> {
  const { data, error } = await supabase
    .rpc('figure_totals', { ...scopeArgs(campaignId), p_from: range.from, p_to: range.to }, { get: true })
    .single()
  if (error) throw new Error(error.message)
  return {
    views: toCredits(data.views),
    clicks: toCredits(data.clicks),
    conversions: toCredits(data.conversions),
    ctr: toCredits(data.ctr),
    spend: toCredits(data.spend),
    updatedAt: data.updated_at ?? null,
  }
}

export const figureTotalsQueryOptions = (campaignId: FigureScope, range: DateRange) =>
  queryOptions({
    queryKey: analyticsKeys.totals(scopeKey(campaignId), range),
    queryFn: () => getFigureTotals(campaignId, range),
  })

export const useFigureTotalsQuery = (campaignId: FigureScope, range: DateRange) =>
  useQuery(figureTotalsQueryOptions(campaignId, range))
