/**
 * The date range a dashboard shows: UTC calendar days (the database buckets every per-day figure by UTC day),
 * both ends included, at most a year. The same rules are enforced again by the figure functions.
 */
export type DateRange = { from: string; to: string }

export const MAX_RANGE_DAYS = 366
const DAY_MS = 24 * 60 * 60 * 1000

export const utcDay = (date: Date) => date.toISOString().slice(0, 10)

/** The last `days` days, today included. */
export function lastDays(days: number, now = new Date()): DateRange {
  return { from: utcDay(new Date(now.getTime() - (days - 1) * DAY_MS)), to: utcDay(now) }
}

const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))

/** Why a range cannot be shown, in words a person can act on; null when it is fine. */
export function rangeError({ from, to }: DateRange): string | null {
  if (!from || !to || !isDay(from) || !isDay(to)) return 'Pick both a start and an end date'
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS
  if (days < 0) return 'The start date must be on or before the end date'
  if (days > MAX_RANGE_DAYS) return 'Pick a date range of one year or less'
  return null
}
