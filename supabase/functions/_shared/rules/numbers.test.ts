// How bounds are written in the rules' messages: the same text in every runtime and locale.
import { describe, expect, it } from 'vitest'
import { hasAtMostTwoDecimals, numberText } from '@rules/numbers'

describe('numberText', () => {
  it.each([
    [10, '10'],
    [2000, '2,000'],
    [10_000, '10,000'],
    [1_000_000, '1,000,000'],
    [0.5, '0.50'],
    [1234.5, '1,234.50'],
  ])('writes %d as %s', (value, text) => {
    expect(numberText(value)).toBe(text)
  })
})

describe('hasAtMostTwoDecimals', () => {
  it('ignores a float’s noise but not a third decimal', () => {
    expect(hasAtMostTwoDecimals(19.99)).toBe(true)
    expect(hasAtMostTwoDecimals(0.1 + 0.2)).toBe(true)
    expect(hasAtMostTwoDecimals(25.505)).toBe(false)
  })
})
