/**
 * The device info record of SPEC §3, gathered in the browser for a magic-link click. The IP (and so the
 * country, city and region) is read server-side from the request: no third-party lookup ever delays the
 * redirect (PRODUCT.md "Attribution"). The fingerprint (./fingerprint.ts) is imported dynamically so that only the
 * pages that record clicks download it.
 */

export const BROWSERS = [
  'Firefox',
  'Samsung Internet',
  'Opera',
  'Edge',
  'Chrome',
  'Safari',
  'Internet Explorer',
  'Unknown',
] as const
export type BrowserName = (typeof BROWSERS)[number]

export type DeviceInfo = {
  /** null only from the /earn fast path: still computing, attached to the click after the redirect. */
  fingerprint: string | null
  userAgent: string
  language: string
  timezone: string
  platform: string
  screenWidth: number
  screenHeight: number
  viewport: { width: number; height: number }
  cookiesEnabled: boolean
  doNotTrack: string | null
  hardwareConcurrency: number | null
  deviceMemory: number | null
  connection: {
    downlink: number | null
    effectiveType: string | null
    rtt: number | null
    saveData: boolean | null
  } | null
  timestamp: string
  ip: null
  country: null
  city: null
  region: null
  browser: BrowserName
}

/** SPEC §8: when gathering fails, only the timestamp with ip and country null. */
export type FallbackDeviceInfo = { timestamp: string; ip: null; country: null }

/**
 * Order matters: Samsung Internet, Opera and Edge all claim "Chrome", and Chrome claims "Safari".
 */
const BROWSER_RULES: ReadonlyArray<readonly [RegExp, BrowserName]> = [
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/OPR\/|Opera|OPiOS\//, 'Opera'],
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
  [/MSIE |Trident\//, 'Internet Explorer'],
]

export function detectBrowser(userAgent: string): BrowserName {
  for (const [pattern, name] of BROWSER_RULES) if (pattern.test(userAgent)) return name
  return 'Unknown'
}

/**
 * A fingerprint that never holds a redirect for long: 'unknown' on failure or past the time budget. The in-app
 * `/earn` route waits this long; the cold-load fast path does not wait at all and attaches the fingerprint to
 * the click after the redirect (src/features/magic-link/lib/earn-fast-path.ts). The visitor hash that decides
 * whether a click counts is computed server-side and does not need the fingerprint.
 */
export const FINGERPRINT_BUDGET_MS = 150

/**
 * `delayFallback` is the library's wait for an idle moment before it reads the browser (its deadline is
 * twice that, 100 ms by default); a page that does nothing else meanwhile can shorten it.
 */
export async function getFingerprint(timeoutMs = FINGERPRINT_BUDGET_MS, delayFallback?: number): Promise<string> {
  const attempt = (async () => {
    // FingerprintJS's entropy sources and hash, without its `load()` (./fingerprint.ts says why); it sends no
    // monitoring ping (SPEC §9 allows one on 0.1% of loads, and requires none).
    const { computeFingerprint } = await import('./fingerprint')
    return (await computeFingerprint(delayFallback)) || 'unknown'
  })().catch(() => 'unknown')
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('unknown'), timeoutMs)
  })
  try {
    return await Promise.race([attempt, timeout])
  } finally {
    clearTimeout(timer)
  }
}

type NavigatorExtras = Navigator & {
  deviceMemory?: number
  connection?: { downlink?: number; effectiveType?: string; rtt?: number; saveData?: boolean }
}

function readConnection(nav: NavigatorExtras): DeviceInfo['connection'] {
  const c = nav.connection
  if (!c) return null
  return {
    downlink: c.downlink ?? null,
    effectiveType: c.effectiveType ?? null,
    rtt: c.rtt ?? null,
    saveData: c.saveData ?? null,
  }
}

type TemporalNow = { Now?: { timeZoneId?: () => string } }

/**
 * The visitor's IANA time zone. `Temporal.Now.timeZoneId()` where the browser has it (Chromium 144+, Firefox
 * 139+): it answers in well under a millisecond, while the first `Intl.DateTimeFormat` of a page loads the
 * locale's date data, ~12 ms of a cold tab's main thread measured in Chromium on this machine, spent before
 * the `/earn` click could be sent. Both name the same zone (`America/Buenos_Aires` from either).
 */
export function currentTimeZone(): string {
  const now = (globalThis as { Temporal?: TemporalNow }).Temporal?.Now
  if (typeof now?.timeZoneId === 'function') {
    try {
      const zone = now.timeZoneId()
      if (zone) return zone
    } catch {
      // An unusual host zone: Intl below answers the same question.
    }
  }
  return Intl.DateTimeFormat().resolvedOptions().timeZone
}

/** Everything synchronous in the record; throws if the browser objects are missing or hostile. */
export function readDeviceSignals(fingerprint: string | null, now = new Date()): DeviceInfo {
  const nav = window.navigator as NavigatorExtras
  const userAgent = nav.userAgent
  return {
    fingerprint,
    userAgent,
    language: nav.language,
    timezone: currentTimeZone(),
    platform: nav.platform,
    screenWidth: window.screen.width,
    screenHeight: window.screen.height,
    viewport: { width: window.innerWidth, height: window.innerHeight },
    cookiesEnabled: nav.cookieEnabled,
    doNotTrack: nav.doNotTrack ?? null,
    hardwareConcurrency: nav.hardwareConcurrency ?? null,
    deviceMemory: nav.deviceMemory ?? null,
    connection: readConnection(nav),
    timestamp: now.toISOString(),
    ip: null,
    country: null,
    city: null,
    region: null,
    browser: detectBrowser(userAgent),
  }
}

/** `fingerprint` is usually `getFingerprint`, passed in so a bundle that never computes one leaves the library out. */
export async function collectDeviceInfo(
  fingerprint: () => Promise<string | null>,
): Promise<DeviceInfo | FallbackDeviceInfo> {
  try {
    return readDeviceSignals(await fingerprint().catch(() => 'unknown'))
  } catch {
    return { timestamp: new Date().toISOString(), ip: null, country: null }
  }
}
