// The price range of a newsletter, shared by the campaign form and pinned to campaigns.price_per_subscriber's check.
import { describe, expect, it } from 'vitest'
import {
  MAX_PRICE_PER_SUBSCRIBER,
  MIN_PRICE_PER_SUBSCRIBER,
  PRICE_MESSAGES,
  PRICE_RANGE_HINT,
  PRICE_RANGE_TEXT,
  priceProblem,
} from '@rules/price'

describe('price per subscriber', () => {
  it('is 0.50 to 50.00 credits, written with two decimals', () => {
    expect([MIN_PRICE_PER_SUBSCRIBER, MAX_PRICE_PER_SUBSCRIBER]).toEqual([0.5, 50])
    expect(PRICE_RANGE_HINT).toBe('Between 0.50 and 50.00')
    expect(PRICE_RANGE_TEXT).toBe('0.50 to 50.00')
    expect(PRICE_MESSAGES.tooLow).toBe('Price per subscriber must be at least 0.50 credits')
    expect(PRICE_MESSAGES.tooHigh).toBe('Price per subscriber must be at most 50.00 credits')
  })

  it('accepts both bounds and refuses a cent beyond either, or a third decimal', () => {
    expect(priceProblem(0.5)).toBeNull()
    expect(priceProblem(50)).toBeNull()
    expect(priceProblem(0.49)).toBe(PRICE_MESSAGES.tooLow)
    expect(priceProblem(50.01)).toBe(PRICE_MESSAGES.tooHigh)
    expect(priceProblem(1.005)).toBe(PRICE_MESSAGES.decimals)
    expect(priceProblem(Number.NaN)).toBe(PRICE_MESSAGES.missing)
  })
})
