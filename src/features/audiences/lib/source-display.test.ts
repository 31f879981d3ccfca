import { describe, expect, it } from 'vitest'
import { visitHref } from '@/features/audiences/lib/source-display'

describe('directory card rules (SPEC §2)', () => {
  it("enables 'Visit Page' only for an http(s) url or description", () => {
    expect(visitHref('https://example.com', null)).toBe('https://example.com')
    expect(visitHref('http://example.com', null)).toBe('http://example.com')
    expect(visitHref(null, 'https://from-description.example')).toBe('https://from-description.example')
    expect(visitHref('example.com', 'A weekly letter')).toBeNull()
    expect(visitHref('javascript:alert(1)', null)).toBeNull()
    expect(visitHref('ftp://example.com', null)).toBeNull()
    expect(visitHref(null, null)).toBeNull()
  })
})
