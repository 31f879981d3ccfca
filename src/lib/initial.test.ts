import { describe, expect, it } from 'vitest'
import { initialOf, usableImageUrl } from '@/lib/initial'

describe('image fallbacks', () => {
  it('stands in the first letter of the name, capitalised', () => {
    expect(initialOf('pat notes')).toBe('P')
    expect(initialOf('  émile')).toBe('É')
    expect(initialOf('🚀 Launch')).toBe('🚀')
    expect(initialOf('  ')).toBe('?')
    expect(initialOf(null)).toBe('?')
  })

  it('tries only http(s) addresses and our own paths', () => {
    expect(usableImageUrl('https://cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png')
    expect(usableImageUrl('/seed/campaign-design.svg')).toBe('/seed/campaign-design.svg')
    expect(usableImageUrl('  ')).toBeNull()
    expect(usableImageUrl(null)).toBeNull()
    expect(usableImageUrl('javascript:alert(1)')).toBeNull()
    expect(usableImageUrl('//evil.example.com/x.png')).toBeNull()
    expect(usableImageUrl('not a url')).toBeNull()
  })
})
