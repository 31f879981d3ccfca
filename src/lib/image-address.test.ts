import { describe, expect, it } from 'vitest'
import { isImageAddress } from './image-address'

describe('image addresses', () => {
  it('takes nothing, http(s) addresses and paths this site serves (the demo data’s /seed/… pictures)', () => {
    for (const ok of ['', 'https://cdn.example.com/a.png', 'http://example.com/b.svg', '/seed/campaign-1.svg'])
      expect(isImageAddress(ok), ok).toBe(true)
  })
  it('refuses other schemes, protocol-relative addresses and words', () => {
    for (const bad of ['javascript:alert(1)', '//evil.example/x.png', 'ftp://example.com/a.png', 'picture', '/ spaced'])
      expect(isImageAddress(bad), bad).toBe(false)
  })
})
