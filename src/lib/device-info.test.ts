import { afterEach, describe, expect, it, vi } from 'vitest'
import { collectDeviceInfo, detectBrowser, getFingerprint, readDeviceSignals } from '@/lib/device-info'

const fingerprint = vi.hoisted(() => ({ compute: vi.fn() }))
vi.mock('@/lib/fingerprint', () => ({ computeFingerprint: fingerprint.compute }))

const UA = {
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  firefoxIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/128.0 Mobile/15E148 Safari/605.1.15',
  samsung:
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  opera:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/110.0.0.0',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51',
  chrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  chromeIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0 Mobile/15E148 Safari/604.1',
  safari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  ie11: 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko',
  ie10: 'Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.2; Trident/6.0)',
  curl: 'curl/8.5.0',
}

describe('browser detection (SPEC §3 list)', () => {
  it.each([
    [UA.firefox, 'Firefox'],
    [UA.firefoxIos, 'Firefox'],
    [UA.samsung, 'Samsung Internet'],
    [UA.opera, 'Opera'],
    [UA.edge, 'Edge'],
    [UA.chrome, 'Chrome'],
    [UA.chromeIos, 'Chrome'],
    [UA.safari, 'Safari'],
    [UA.ie11, 'Internet Explorer'],
    [UA.ie10, 'Internet Explorer'],
    [UA.curl, 'Unknown'],
    ['', 'Unknown'],
  ])('%s → %s', (ua, expected) => {
    expect(detectBrowser(ua)).toBe(expected)
  })
})

describe('device info record', () => {
  afterEach(() => vi.restoreAllMocks())

  it('has every SPEC §3 field, with ip, country, city and region left to the server', () => {
    const info = readDeviceSignals('fp-123', new Date('2026-11-22T10:00:00Z'))
    expect(Object.keys(info).sort()).toEqual(
      [
        'browser',
        'city',
        'connection',
        'cookiesEnabled',
        'country',
        'deviceMemory',
        'doNotTrack',
        'fingerprint',
        'hardwareConcurrency',
        'ip',
        'language',
        'platform',
        'region',
        'screenHeight',
        'screenWidth',
        'timestamp',
        'timezone',
        'userAgent',
        'viewport',
      ].sort(),
    )
    expect(info).toMatchObject({
      fingerprint: 'fp-123',
      userAgent: navigator.userAgent,
      language: navigator.language,
      viewport: { width: window.innerWidth, height: window.innerHeight },
      timestamp: '2026-11-22T10:00:00.000Z',
      ip: null,
      country: null,
      city: null,
      region: null,
    })
  })

  it('falls back to only the timestamp with ip and country null when gathering fails', async () => {
    vi.spyOn(window, 'navigator', 'get').mockImplementation(() => {
      throw new Error('navigator blocked')
    })
    const info = await collectDeviceInfo(async () => 'fp')
    expect(Object.keys(info).sort()).toEqual(['country', 'ip', 'timestamp'])
    expect(info).toMatchObject({ ip: null, country: null })
    expect(Number.isNaN(Date.parse(info.timestamp))).toBe(false)
  })

  it("records the fingerprint as 'unknown' when the fingerprint fails", async () => {
    const info = await collectDeviceInfo(() => Promise.reject(new Error('blocked')))
    expect(info).toMatchObject({ fingerprint: 'unknown' })
  })
})

describe('fingerprint', () => {
  it('returns the fingerprint the library computed', async () => {
    fingerprint.compute.mockResolvedValueOnce('abc123')
    expect(await getFingerprint()).toBe('abc123')
  })

  it("returns 'unknown' when the library fails", async () => {
    fingerprint.compute.mockRejectedValueOnce(new Error('blocked by an extension'))
    expect(await getFingerprint()).toBe('unknown')
  })

  it("returns 'unknown' instead of holding the redirect when the library is slow", async () => {
    fingerprint.compute.mockReturnValueOnce(new Promise(() => {}))
    expect(await getFingerprint(20)).toBe('unknown')
  })
})
