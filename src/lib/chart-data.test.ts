import { describe, expect, it } from 'vitest'
import { formatSeriesValue, isEmptySeries, toChartPoints } from '@/lib/chart-data'
import { lastDays, rangeError } from '@/lib/date-range'

describe('chart data shaping', () => {
  const rows = [
    { day: '2026-01-04', views: '3', clicks: 2, conversions: '1', spend: '10.50', earnings: '8.40' },
    { day: '2026-01-05', views: 0, clicks: '0', conversions: 0, spend: '0.00', earnings: 0 },
  ]

  it('turns the database rows (numbers as strings) into numeric points labelled by UTC day, in order', () => {
    expect(toChartPoints(rows)).toEqual([
      { day: '2026-01-04', label: 'Jan 4', views: 3, clicks: 2, conversions: 1, spend: 10.5, earnings: 8.4 },
      { day: '2026-01-05', label: 'Jan 5', views: 0, clicks: 0, conversions: 0, spend: 0, earnings: 0 },
    ])
  })

  it('treats unreadable values as 0 instead of NaN', () => {
    expect(toChartPoints([{ ...rows[0]!, spend: 'n/a' }])[0]!.spend).toBe(0)
  })

  it('knows when a series is empty over the whole range, per series', () => {
    const points = toChartPoints(rows)
    expect(isEmptySeries(points, ['spend'])).toBe(false)
    expect(isEmptySeries(points.slice(1), ['clicks', 'views'])).toBe(true)
    expect(isEmptySeries([], ['clicks'])).toBe(true)
  })

  it('formats the exact tooltip value: counts whole, credits with two decimals', () => {
    expect(formatSeriesValue('clicks', 1234)).toBe('1,234')
    expect(formatSeriesValue('spend', 10.5)).toBe('10.50 credits')
  })
})

describe('date range', () => {
  it('defaults to the last N days, today included, in UTC', () => {
    expect(lastDays(7, new Date('2026-03-10T23:30:00Z'))).toEqual({ from: '2026-03-04', to: '2026-03-10' })
  })

  it('refuses a reversed range, one over a year and a missing end, with the database messages', () => {
    expect(rangeError({ from: '2026-02-01', to: '2026-01-01' })).toBe(
      'The start date must be on or before the end date',
    )
    expect(rangeError({ from: '2025-01-01', to: '2026-01-10' })).toBe('Pick a date range of one year or less')
    expect(rangeError({ from: '2026-01-01', to: '' })).toBe('Pick both a start and an end date')
    expect(rangeError({ from: '2025-01-10', to: '2026-01-10' })).toBeNull()
  })
})
