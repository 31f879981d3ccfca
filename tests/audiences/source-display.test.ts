import { describe, expect, it } from 'vitest'
import { categoryLabel, initial, platformLabel, statusColour, statusLabel, visitHref } from '@/features/audiences/lib/source-display'

describe('directory card rules (SPEC §2)', () => {
  it.each([
    ['approved', 'Verified', 'green'],
    ['verified', 'Verified', 'green'],
    ['live', 'Live', 'green'],
    ['pending', 'Pending', 'yellow'],
    ['pending_review', 'Pending review', 'yellow'],
    ['under_review', 'Under review', 'yellow'],
    ['rejected', 'Rejected', 'red'],
    ['banned', 'Banned', 'red'],
    ['archived', 'Archived', 'grey'],
  ])('status %s reads %s in %s', (status, label, colour) => {
    expect(statusLabel(status)).toBe(label)
    expect(statusColour(status)).toBe(colour)
  })

  it('capitalises the category, and says Other when there is none', () => {
    expect(categoryLabel('technology')).toBe('Technology')
    expect(categoryLabel('Business')).toBe('Business')
    expect(categoryLabel(null)).toBe('Other')
    expect(categoryLabel('  ')).toBe('Other')
  })

  it('shows twitter and x as X, and other platforms by name', () => {
    expect(platformLabel('twitter')).toBe('X')
    expect(platformLabel('x')).toBe('X')
    expect(platformLabel('X')).toBe('X')
    expect(platformLabel('newsletter')).toBe('Newsletter')
    expect(platformLabel('product')).toBe('Product')
    expect(platformLabel('youtube')).toBe('YouTube')
    expect(platformLabel('mastodon')).toBe('Mastodon')
    expect(platformLabel(null)).toBe('Other')
  })

  it("enables 'Visit Page' only for an http(s) url or description", () => {
    expect(visitHref('https://example.com', null)).toBe('https://example.com')
    expect(visitHref('http://example.com', null)).toBe('http://example.com')
    expect(visitHref(null, 'https://from-description.example')).toBe('https://from-description.example')
    expect(visitHref('example.com', 'A weekly letter')).toBeNull()
    expect(visitHref('javascript:alert(1)', null)).toBeNull()
    expect(visitHref('ftp://example.com', null)).toBeNull()
    expect(visitHref(null, null)).toBeNull()
  })

  it('uses the first letter of the name when there is no image', () => {
    expect(initial('pat notes')).toBe('P')
    expect(initial('  ')).toBe('?')
  })
})
