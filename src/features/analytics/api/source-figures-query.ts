/**
 * One campaign's figures per source over a date range (`campaign_source_figures`: the same numbers the publisher and
 * admins see), with each source's engagement in the advertiser's email tool (`esp_engagement_figures`), and when the
 * views and clicks were last brought up to date (every row's `updated_at`: they lag by at most one drain-click-queue run).
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toCredits } from '@/lib/format'
import type { DateRange } from '@/lib/date-range'
import { analyticsKeys } from '../keys'
import { scopeKey, type FigureScope } from '../scope'
import { getEspEngagement, type SourceEngagement } from './esp-engagement-query'

export type SourceFigure = {
  sourceId: string
  sourceName: string
  views: number
  clicks: number
  conversions: number
  ctr: number
  spend: number
  /** Null when none of the source's subscribers went to an email tool that reports opens and clicks. */
  engagement: SourceEngagement | null
}

export type SourceFigures = { rows: SourceFigure[]; updatedAt: string | null }

/** Every row carries the same figures_updated_at(); no row, no time to say. */
const updatedAtOf = (data: { updated_at: string }[] | null) => data?.[0]?.updated_at ?? null

export async function getSourceFigures(campaignId: string, range: DateRange): Promise<SourceFigures> {
  const [{ data, error }, engagement] = await Promise.all([
    supabase.rpc(
      'campaign_source_figures',
      { p_campaign_id: campaignId, p_from: range.from, p_to: range.to },
      { get: true },
    ),
    getEspEngagement(campaignId, range),
  ])
  if (error) throw new Error(error.message)
  const rows = (data ?? []).map((row) => ({
    sourceId: row.source_id,
    sourceName: row.source_name,
    views: toCredits(row.views),
    clicks: toCredits(row.clicks),
    conversions: toCredits(row.conversions),
    ctr: toCredits(row.ctr),
    spend: toCredits(row.spend),
    engagement: engagement.get(row.source_id) ?? null,
  }))
  return { rows, updatedAt: updatedAtOf(data) }
}

/** One source's figures per newsletter (admins): the same function from the source's side, without engagement. */
export async function getSourceCampaignFigures(sourceId: string, range: DateRange): Promise<SourceFigures> {
  const { data, error } = await supabase.rpc(
    'campaign_source_figures',
    { p_source_id: sourceId, p_from: range.from, p_to: range.to },
    { get: true },
  )
  if (error) throw new Error(error.message)
  const rows = (data ?? []).map((row) => ({
    sourceId: row.campaign_id,
    sourceName: row.campaign_name,
    views: toCredits(row.views),
    clicks: toCredits(row.clicks),
    conversions: toCredits(row.conversions),
    ctr: toCredits(row.ctr),
    spend: toCredits(row.spend),
    engagement: null,
  }))
  return { rows, updatedAt: updatedAtOf(data) }
}

export const sourceFiguresQueryOptions = (scope: FigureScope, range: DateRange) =>
  queryOptions({
    queryKey: analyticsKeys.sourceFigures(scopeKey(scope), range),
    queryFn: () =>
      typeof scope === 'object' && scope.kind === 'source'
        ? getSourceCampaignFigures(scope.id, range)
        : getSourceFigures(typeof scope === 'string' ? scope : scope.id, range),
  })

export const useSourceFiguresQuery = (scope: FigureScope, range: DateRange) =>
  useQuery(sourceFiguresQueryOptions(scope, range))
