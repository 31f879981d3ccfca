/**
 * The `/earn/{code}` fast path's entry (see src/main.tsx): the redirect spinner as plain HTML, the click and
 * the redirect (unless dist/earn.html's inline script did them), then the toast and the fingerprint. Imports
 * nothing of React, the router or the Supabase client. `dist/earn.html` (scripts/prerender-plugin.ts) already
 * shows the spinner and preloads these chunks.
 */
import { getFingerprint } from '@/lib/device-info'
import { earnCodeOf, runEarnFastPath } from '@/features/magic-link/lib/earn-fast-path'
import { EARN_SPINNER_HTML } from '@/features/magic-link/lib/earn-spinner'

/**
 * How long the fingerprint may take before 'unknown' is recorded instead. Nothing waits for it any more (it
 * is attached to the click after the redirect), so a slow device gets its real fingerprint recorded.
 */
const FINGERPRINT_WAIT_MS = 10_000

export async function runEarnEntry() {
  // dist/earn.html shows the spinner already and may run this before it is parsed; index.html shows the home
  // page's HTML (or the shell) until it is replaced here.
  if (!document.getElementById('earn-spinner')) {
    const main = document.querySelector('#root main')
    if (main) main.outerHTML = EARN_SPINNER_HTML
    else document.getElementById('root')!.innerHTML = EARN_SPINNER_HTML
  }
  // dist/earn.html's inline script has usually sent the click (and redirected) already. The fingerprint library
  // waits for an idle moment of the page before it reads the browser, so it does not hold up the app that
  // starts at the destination.
  await runEarnFastPath(earnCodeOf(window.location.pathname) ?? '', () => getFingerprint(FINGERPRINT_WAIT_MS))
}
