/**
 * Turns click and subscriber rows into per-day series and not-counted totals by reason. Pure, so the
 * bucketing (UTC days, oldest first, empty days kept) is tested on its own.
 */
import { reasonLabel } from '@/lib/vocabulary'

export type ActivityRow = { at: string; counted: boolean; reason: string | null }
export type DayPoint = { day: string; clicks: number; subscribers: number }
export type ReasonTotal = { reason: string; label: string; clicks: number; subscribers: number }
export type CampaignActivity = { days: DayPoint[]; notCounted: ReasonTotal[]; truncated: boolean }


const dayOf = (iso: string) => iso.slice(0, 10)

type Input = { clicks: ActivityRow[]; subscribers: ActivityRow[]; days: number; now: Date; truncated: boolean }

export function summariseActivity({ clicks, subscribers, days, now, truncated }: Input): CampaignActivity {
  const series = new Map<string, DayPoint>()
  for (let i = days - 1; i >= 0; i--) {
    const day = dayOf(new Date(now.getTime() - i * 24 * 60 * 60 * 1000).toISOString())
    series.set(day, { day, clicks: 0, subscribers: 0 })
  }
  const reasons = new Map<string, ReasonTotal>()
  const reasonTotal = (reason: string) => {
    let total = reasons.get(reason)
    if (!total) {
      total = { reason, label: reasonLabel(reason), clicks: 0, subscribers: 0 }
      reasons.set(reason, total)
    }
    return total
  }
  for (const click of clicks) {
    if (click.counted) {
      const point = series.get(dayOf(click.at))
      if (point) point.clicks++
    } else if (click.reason) reasonTotal(click.reason).clicks++
  }
  for (const subscriber of subscribers) {
    if (subscriber.counted) {
      const point = series.get(dayOf(subscriber.at))
      if (point) point.subscribers++
    } else if (subscriber.reason) reasonTotal(subscriber.reason).subscribers++
  }
  const notCounted = [...reasons.values()].sort((a, b) => b.clicks + b.subscribers - (a.clicks + a.subscribers))
  return { days: [...series.values()], notCounted, truncated }
}
