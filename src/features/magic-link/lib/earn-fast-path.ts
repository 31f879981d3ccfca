/**
 * `/earn/{code}` opened from outside the app (a cold load): the SPEC §4 flow before any of the app has
 * loaded. The same state machine as the in-app route (`runMagicLinkFlow`), the same storage keys and toasts.
 * The click and the redirect are `recordEarnClick` (./earn-click.ts), usually done by `dist/earn.html`'s inline
 * script, which then leaves for the destination's document; this half runs there (`finishPendingEarnClick`,
 * started by src/main.tsx beside the app): it shows the flow's toast and attaches the fingerprint to the click.
 * Over `index.html` (no `/earn` rewrite) both halves run in one document (`runEarnFastPath`).
 */
import { postClickFingerprint } from '../api/track-click-request'
import { historyRedirect, recordEarnClick, type EarnClick } from './earn-click'
import { takePendingEarnClick } from './earn-pending'
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

/** Both halves in one document (the app's `index.html` served for `/earn`): a same-document redirect. */
export async function runEarnFastPath(code: string, fingerprint: () => Promise<string>): Promise<EarnFastPathResult> {
  const click = await (window.__growletterEarnClick ?? recordEarnClick(code, historyRedirect))
  // Handled here: the next document must not toast or attach it again.
  takePendingEarnClick()
  return finishEarnClick(click, fingerprint)
}

/** The second half at the destination of `dist/earn.html`'s redirect, once; null when nothing is pending. */
export function finishPendingEarnClick(fingerprint: () => Promise<string>): EarnFastPathResult | null {
  const click = takePendingEarnClick()
  return click ? finishEarnClick(click, fingerprint) : null
}
