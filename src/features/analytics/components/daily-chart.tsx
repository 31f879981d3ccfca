/**
 * One CSS column per day, stretching to the card's width. The chart is described as a whole for screen
 * readers (role img + label); each column's title shows its day and value on hover.
 */
import type { DayPoint } from '../activity'

type DailyChartProps = { title: string; points: DayPoint[]; series: 'clicks' | 'subscribers' }

export function DailyChart({ title, points, series }: DailyChartProps) {
  const values = points.map((point) => point[series])
  const max = Math.max(1, ...values)
  const total = values.reduce((sum, value) => sum + value, 0)
  return (
    <figure className="space-y-2">
      <figcaption className="text-sm font-medium">
        {title} <span className="text-muted-foreground">({total} in {points.length} days)</span>
      </figcaption>
      <div
        role="img"
        aria-label={`${title}: ${total} over the last ${points.length} days, at most ${Math.max(0, ...values)} in a day`}
        className="flex h-28 items-end gap-1 border-b border-border"
      >
        {points.map((point) => (
          <div key={point.day} title={`${point.day}: ${point[series]}`} className="flex h-full flex-1 items-end">
            <div
              className="w-full rounded-t-sm bg-primary"
              style={{ height: `${(point[series] / max) * 100}%`, minHeight: point[series] > 0 ? 2 : 0 }}
            />
          </div>
        ))}
      </div>
      {points.length > 0 && (
        <div className="flex justify-between text-xs text-muted-foreground" aria-hidden="true">
          <span>{points[0].day.slice(5)}</span>
          <span>{points[points.length - 1].day.slice(5)}</span>
        </div>
      )}
    </figure>
  )
}
