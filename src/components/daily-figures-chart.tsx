/**
 * One per-day chart (recharts, as shadcn's charts): days on the x axis, the unit on the y axis, a tooltip with
 * the exact value and date, a legend, and an empty state that says what would fill it.
 */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { formatSeriesValue, isEmptySeries, type ChartPoint, type ChartSeries } from '@/lib/chart-data'
import { metrics } from '@/lib/metrics'

const colours: Record<ChartSeries, string> = {
  views: 'var(--color-chart-1, #6366f1)',
  clicks: 'var(--color-chart-2, #0ea5e9)',
  conversions: 'var(--color-chart-3, #16a34a)',
  spend: 'var(--color-chart-4, #f59e0b)',
  earnings: 'var(--color-chart-5, #db2777)',
}
const names: Record<ChartSeries, string> = {
  views: 'Views',
  clicks: metrics.countedClicks.label,
  conversions: metrics.paidSubscribers.label,
  spend: 'Spend',
  earnings: 'Earnings',
}

type Props = { title: string; points: ChartPoint[]; series: ChartSeries[]; unit: string; empty: string }

export function DailyFiguresChart({ title, points, series, unit, empty }: Props) {
  const first = points[0]?.day
  const last = points.at(-1)?.day
  return (
    <figure className="space-y-2" data-testid={`chart-${series.join('-')}`}>
      <figcaption className="text-sm font-medium">{title}</figcaption>
      {isEmptySeries(points, series) ? (
        <p className="flex h-48 items-center justify-center rounded-md border border-dashed px-4 text-center text-sm text-muted-foreground">
          {empty}
        </p>
      ) : (
        <div
          role="img"
          aria-label={`${/ per day$/.test(title) ? title : `${title} per day`} from ${first} to ${last}`}
          className="h-56 w-full"
        >
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid vertical={false} strokeDasharray="3 3" />
              <XAxis dataKey="label" tickLine={false} axisLine={false} minTickGap={16} fontSize={12} />
              <YAxis
                allowDecimals={unit === 'credits'}
                tickLine={false}
                axisLine={false}
                width={48}
                fontSize={12}
                label={{ value: unit, angle: -90, position: 'insideLeft', fontSize: 12 }}
              />
              <Tooltip
                labelFormatter={(_label, payload) => String(payload?.[0]?.payload?.day ?? _label)}
                formatter={(value, _name, item) => [
                  formatSeriesValue(item.dataKey as ChartSeries, Number(value)),
                  names[item.dataKey as ChartSeries],
                ]}
              />
              <Legend />
              {series.map((key) => (
                <Bar
                  key={key}
                  dataKey={key}
                  name={names[key]}
                  fill={colours[key]}
                  radius={[3, 3, 0, 0]}
                  isAnimationActive={false}
                />
              ))}
            </BarChart>
          </ResponsiveContainer>
        </div>
      )}
    </figure>
  )
}
