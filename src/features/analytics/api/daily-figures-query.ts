/** One campaign's figures per UTC day, every day of the range filled by the database (`daily_figures`). */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toChartPoints } from '@/lib/chart-data'
import type { DateRange } from '@/lib/date-range'
import { analyticsKeys } from '../keys'
import { scopeArgs, scopeKey, type FigureScope } from '../scope'

export async function getDailyFigures(campaignId: FigureScope, range: DateRange) {
  const { data, error } = await supabase.rpc(
    'daily_figures',
    { ...scopeArgs(campaignId), p_from: range.from, p_to: range.to },
    { get: true },
  )
  if (error) throw new Error(error.message)
  return toChartPoints(data ?? [])
}

export const dailyFiguresQueryOptions = (campaignId: FigureScope, range: DateRange) =>
  queryOptions({
    queryKey: analyticsKeys.daily(scopeKey(campaignId), range),
    queryFn: () => getDailyFigures(campaignId, range),
  })

export const useDailyFiguresQuery = (campaignId: FigureScope, range: DateRange) =>
  useQuery(dailyFiguresQueryOptions(campaignId, range))
