/**
 * One SVG column per day. The svg is described as a whole for screen readers; each column has a <title>
 * with its day and value, which also shows on hover.
 */
import type { DayPoint } from '../activity'

type DailyChartProps = { title: string; points: DayPoint[]; series: 'clicks' | 'subscribers' }

const WIDTH = 280
const HEIGHT = 100

export function DailyChart({ title, points, series }: DailyChartProps) {
  const values = points.map((point) => point[series])
  const max = Math.max(1, ...values)
  const total = values.reduce((sum, value) => sum + value, 0)
  const step = WIDTH / Math.max(1, points.length)
  return (
    <figure className="space-y-2">
      <figcaption className="text-sm font-medium">
        {title} <span className="text-muted-foreground">({total} in {points.length} days)</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT + 14}`}
        role="img"
        aria-label={`${title}: ${total} over the last ${points.length} days, at most ${Math.max(0, ...values)} in a day`}
        className="h-32 w-full"
      >
        {points.map((point, i) => {
          const h = (point[series] / max) * HEIGHT
          return (
            <rect key={point.day} x={i * step + 2} y={HEIGHT - h} width={Math.max(1, step - 4)} height={h} rx={2} className="fill-primary">
              <title>{`${point.day}: ${point[series]}`}</title>
            </rect>
          )
        })}
        <line x1={0} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} className="stroke-border" />
        {points.length > 0 && (
          <>
            <text x={0} y={HEIGHT + 12} className="fill-muted-foreground text-[8px]">
              {points[0].day.slice(5)}
            </text>
            <text x={WIDTH} y={HEIGHT + 12} textAnchor="end" className="fill-muted-foreground text-[8px]">
              {points[points.length - 1].day.slice(5)}
            </text>
          </>
        )}
      </svg>
    </figure>
  )
}
