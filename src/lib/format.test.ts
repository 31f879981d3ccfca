import { describe, expect, it } from 'vitest'
import { formatCount, formatCredits } from '@/lib/format'

describe('formatCount', () => {
  it('groups digits exactly as toLocaleString("en-US") does', () => {
    const values = [
      0,
      1,
      12,
      999,
      1000,
      1001,
      12_345,
      100_000,
      999_999,
      1_000_000,
      123_456_789,
      -1,
      -1234,
      -1_000_000,
      Number.MAX_SAFE_INTEGER,
    ]
    for (const value of values) expect(formatCount(value)).toBe(value.toLocaleString('en-US'))
  })

  it('falls back to Intl for what is not a safe whole number', () => {
    for (const value of [1.5, 1234.5678, 1e21, Number.NaN, Number.POSITIVE_INFINITY])
      expect(formatCount(value)).toBe(value.toLocaleString('en-US'))
  })
})

describe('formatCredits', () => {
  it('writes two decimals and the unit', () => {
    expect(formatCredits(1234.5)).toBe('1,234.50 credits')
    expect(formatCredits('7')).toBe('7.00 credits')
    expect(formatCredits(null)).toBe('0.00 credits')
  })
})
