/**
 * The `/earn/{code}` fast path's module (see src/main.tsx), never loaded by `dist/earn.html` itself:
 * - at the destination of dist/earn.html's redirect, beside the app: the toast and the fingerprint of the
 *   click the light page recorded (`runPendingEarnClick`);
 * - on `index.html` served for `/earn` (a host without the rewrite): the redirect spinner as plain HTML, the
 *   click and a same-document redirect, then the toast and the fingerprint (`runEarnEntry`).
 * Imports nothing of React, the router or the Supabase client.
 */
import { getFingerprint } from '@/lib/device-info'
import { earnCodeOf, finishPendingEarnClick, runEarnFastPath } from '@/features/magic-link/lib/earn-fast-path'
import { EARN_SPINNER_HTML } from '@/features/magic-link/lib/earn-spinner'

/**
 * How long the fingerprint may take before 'unknown' is recorded instead. Nothing waits for it any more (it
 * is attached to the click after the redirect), so a slow device gets its real fingerprint recorded.
 */
const FINGERPRINT_WAIT_MS = 10_000

const fingerprint = () => getFingerprint(FINGERPRINT_WAIT_MS)

export async function runEarnEntry() {
  // index.html shows the home page's HTML (or the shell) until it is replaced here.
  if (!document.getElementById('earn-spinner')) {
    const main = document.querySelector('#root main')
    if (main) main.outerHTML = EARN_SPINNER_HTML
    else document.getElementById('root')!.innerHTML = EARN_SPINNER_HTML
  }
  // The fingerprint library waits for an idle moment of the page before it reads the browser, so it does not
  // hold up the app that starts at the destination.
  await runEarnFastPath(earnCodeOf(window.location.pathname) ?? '', fingerprint)
}

/** The second half of a click dist/earn.html recorded before it navigated here. */
export function runPendingEarnClick() {
  finishPendingEarnClick(fingerprint)
}
