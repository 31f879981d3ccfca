/**
 * `/earn/{code}` opened from outside the app (a cold load): the SPEC §4 flow before any of the app has
 * loaded. The same state machine as the in-app route (`runMagicLinkFlow`), the same storage keys and toasts.
 * The click and the redirect are `recordEarnClick` (./earn-click.ts, often already done by `dist/earn.html`'s
 * inline script); this half shows the flow's toast and attaches the fingerprint to the click. Then the app
 * starts at the destination: React, the router and the page load after the redirect, never before it.
 */
import { postClickFingerprint } from '../api/track-click-request'
import { recordEarnClick, type EarnClick } from './earn-click'
import { showMagicLinkToast } from './magic-link-toasts'

export { earnCodeOf } from './earn-click'

export type EarnFastPathResult = EarnClick & {
  /** Settles when the fingerprint has been sent for the click (true when it was recorded). */
  fingerprintRecorded: Promise<boolean>
}

/**
 * `fingerprint` computes it (never rejecting: 'unknown' on failure, SPEC §8). It is called after the redirect,
 * so its work on the main thread cannot delay the click's answer.
 */
export function finishEarnClick(click: EarnClick, fingerprint: () => Promise<string>): EarnFastPathResult {
  // The toast waits for sonner (loaded now) and shows once the app's toaster mounts.
  if (click.toast) showMagicLinkToast(click.toast)
  const { clickId } = click
  const fingerprintRecorded =
    clickId && click.fingerprintFollows
      ? fingerprint().then((value) => postClickFingerprint(clickId, value))
      : Promise.resolve(false)
  return { ...click, fingerprintRecorded }
}

/** Both halves; the first is skipped when dist/earn.html's inline script has already sent the click. */
export async function runEarnFastPath(code: string, fingerprint: () => Promise<string>): Promise<EarnFastPathResult> {
  return finishEarnClick(await (window.__growletterEarnClick ?? recordEarnClick(code)), fingerprint)
}
