/**
 * The click's device fingerprint (SPEC §3 `fingerprint`), from FingerprintJS's own entropy sources that the
 * package exports one by one: canvas, audio, screen resolution and hardware concurrency, hashed with its
 * MurmurHash3 (x64, 128 bits; the same 32 hex characters as a visitor id). Not `load()`: its source table pulls in
 * every one of its ~40 sources (the font list, the ad-blocker selectors, WebGL) whether or not they are used,
 * 15.1 KB gzip of the magic-link visit against 2.6 KB for these, and the visit must stay within 150 KB all told
 * (ARCHITECTURE "Budgets"). The fingerprint is evidence stored with the click (attach_click_fingerprint); no rule
 * compares it, so it is not the library's visitor id and need not be.
 *
 * Stable as the library's own versions are: where a browser randomises canvas images or audio in private modes
 * (Safari from 17, Firefox from 120) those two are left out there, as `load()` leaves them out.
 */
import {
  getUnstableAudioFingerprint,
  getUnstableCanvasFingerprint,
  getUnstableHardwareConcurrency,
  getUnstableScreenResolution,
  isGecko,
  isWebKit,
  murmurX64Hash128,
} from '@fingerprintjs/fingerprintjs'

/** Waits for an idle moment of the page (at most `2 × delayFallback`), as the library's `load()` does. */
function idle(delayFallback: number) {
  const { requestIdleCallback } = window
  return typeof requestIdleCallback === 'function'
    ? new Promise<void>((resolve) => requestIdleCallback.call(window, () => resolve(), { timeout: delayFallback * 2 }))
    : new Promise<void>((resolve) => setTimeout(resolve, delayFallback))
}

/** `delayFallback`: the library's default, 50 ms. */
export async function computeFingerprint(delayFallback = 50): Promise<string> {
  await idle(delayFallback)
  const randomises = isWebKit() || isGecko()
  const audio = randomises ? -1 : getUnstableAudioFingerprint()
  const components = {
    canvas: getUnstableCanvasFingerprint(randomises),
    audio: typeof audio === 'function' ? await audio() : audio,
    screen: getUnstableScreenResolution(),
    hardwareConcurrency: getUnstableHardwareConcurrency() ?? null,
  }
  return murmurX64Hash128(JSON.stringify(components))
}
