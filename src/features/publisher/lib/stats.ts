/**
 * Per-source and per-campaign totals from `campaign_source_stats`. SPEC §9 defaults: a name that cannot be
 * read is 'Unknown Campaign' / 'Unknown Source', a missing count is 0. CTR = conversions per 100 clicks.
 */
export type StatsRow = {
  campaign_id: string
  audience_source_id: string
  total_views: number | null
  total_clicks: number | null
  total_conversions: number | null
  total_earnings: number | null
  campaign: { name: string | null } | null
  source: { name: string | null } | null
}

export type StatsLine = { id: string; name: string; views: number; clicks: number; conversions: number; earnings: number; ctr: number }

export const UNKNOWN_CAMPAIGN = 'Unknown Campaign'
export const UNKNOWN_SOURCE = 'Unknown Source'

const n = (value: number | string | null | undefined) => {
  const num = Number(value ?? 0)
  return Number.isFinite(num) ? num : 0
}

export const ctr = (conversions: number, clicks: number) =>
  clicks > 0 ? Math.round((conversions * 10000) / clicks) / 100 : 0

function group(rows: readonly StatsRow[], by: 'campaign' | 'source'): StatsLine[] {
  const lines = new Map<string, StatsLine>()
  for (const row of rows) {
    const id = by === 'campaign' ? row.campaign_id : row.audience_source_id
    const name = (by === 'campaign' ? row.campaign?.name : row.source?.name) || (by === 'campaign' ? UNKNOWN_CAMPAIGN : UNKNOWN_SOURCE)
    const line = lines.get(id) ?? { id, name, views: 0, clicks: 0, conversions: 0, earnings: 0, ctr: 0 }
    line.views += n(row.total_views)
    line.clicks += n(row.total_clicks)
    line.conversions += n(row.total_conversions)
    line.earnings = Math.round((line.earnings + n(row.total_earnings)) * 100) / 100
    line.ctr = ctr(line.conversions, line.clicks)
    lines.set(id, line)
  }
  return [...lines.values()].sort((a, b) => b.conversions - a.conversions || b.clicks - a.clicks || a.name.localeCompare(b.name))
}

export const statsBySource = (rows: readonly StatsRow[]) => group(rows, 'source')
export const statsByCampaign = (rows: readonly StatsRow[]) => group(rows, 'campaign')
