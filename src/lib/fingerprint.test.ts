import { afterEach, describe, expect, it, vi } from 'vitest'
import { computeFingerprint } from '@/lib/fingerprint'

describe('click fingerprint', () => {
  afterEach(() => vi.restoreAllMocks())

  it('is 32 hex characters, the same for the same browser', async () => {
    const first = await computeFingerprint(0)
    expect(first).toMatch(/^[0-9a-f]{32}$/)
    expect(await computeFingerprint(0)).toBe(first)
  })

  it('differs when the device differs (another screen, another number of cores)', async () => {
    const before = await computeFingerprint(0)
    vi.spyOn(window.screen, 'width', 'get').mockReturnValue(3840)
    const otherScreen = await computeFingerprint(0)
    vi.spyOn(navigator, 'hardwareConcurrency', 'get').mockReturnValue(64)
    const otherCores = await computeFingerprint(0)
    expect(new Set([before, otherScreen, otherCores]).size).toBe(3)
  })
})
