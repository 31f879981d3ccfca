/**
 * Shapes the per-day rows of `daily_figures` (numeric columns may arrive as strings) into recharts points.
 * Only conversion and labelling happen here: the database fills every day of the range and sums the figures.
 */
export type DailyFigureRow = {
  day: string
  views: number | string
  clicks: number | string
  conversions: number | string
  spend: number | string
  earnings: number | string
}
export type ChartPoint = {
  day: string
  label: string
  views: number
  clicks: number
  conversions: number
  spend: number
  earnings: number
}
export type ChartSeries = 'views' | 'clicks' | 'conversions' | 'spend' | 'earnings'

const num = (value: number | string) => {
  const n = typeof value === 'string' ? Number.parseFloat(value) : value
  return Number.isFinite(n) ? n : 0
}

const dayLabel = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })

export function toChartPoints(rows: readonly DailyFigureRow[]): ChartPoint[] {
  return rows.map((row) => ({
    day: row.day,
    label: dayLabel.format(new Date(`${row.day}T00:00:00Z`)),
    views: num(row.views),
    clicks: num(row.clicks),
    conversions: num(row.conversions),
    spend: num(row.spend),
    earnings: num(row.earnings),
  }))
}

/** Whether none of the given series has a value on any day (the chart then shows its empty state). */
export const isEmptySeries = (points: readonly ChartPoint[], series: readonly ChartSeries[]) =>
  points.every((point) => series.every((key) => point[key] === 0))

/** The tooltip's exact value: whole counts, or credits with two decimals. */
export const formatSeriesValue = (series: ChartSeries, value: number) =>
  series === 'spend' || series === 'earnings'
    ? `${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} credits`
    : value.toLocaleString('en-US')
