import { describe, expect, it } from 'vitest'
import { matchesWidth } from './viewport'

describe('matchesWidth', () => {
  it('judges min- and max-width clauses against the width, and nothing else as matching', () => {
    expect(matchesWidth('(max-width: 767px)', 390)).toBe(true)
    expect(matchesWidth('(min-width: 768px)', 390)).toBe(false)
    expect(matchesWidth('(min-width: 768px)', 1280)).toBe(true)
    expect(matchesWidth('(min-width: 320px) and (max-width: 767px)', 390)).toBe(true)
    expect(matchesWidth('(min-width: 400px) and (max-width: 767px)', 390)).toBe(false)
    expect(matchesWidth('(prefers-reduced-motion: reduce)', 390)).toBe(false)
  })
})
