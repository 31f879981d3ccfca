/**
 * The `/earn/{code}` fast path's entry (see src/main.tsx): the redirect spinner as plain HTML, the click and
 * the redirect (unless dist/earn.html's inline script did them), then the toast and the fingerprint. Imports nothing of React, the router or the Supabase
 * client. `dist/earn.html` (scripts/prerender-plugin.ts) already shows the spinner and preloads these chunks.
 */
import { getFingerprint } from '@/lib/device-info'
import { earnCodeOf, recordEarnClick } from '@/features/magic-link/lib/earn-click'
import { finishEarnClick } from '@/features/magic-link/lib/earn-fast-path'

/**
 * How long the fingerprint may take before 'unknown' is recorded instead. Nothing waits for it any more (it
 * is attached to the click after the redirect), so a slow device gets its real fingerprint recorded.
 */
const FINGERPRINT_WAIT_MS = 10_000

// Lucide's loader icon, as PageSpinner draws it.
const SPINNER =
  '<div role="status" class="flex min-h-[40vh] items-center justify-center gap-2 text-muted-foreground">' +
  '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="size-5 animate-spin" aria-hidden="true"><path d="M21 12a9 9 0 1 1-6.219-8.56"/></svg>' +
  '<span>Redirecting to newsletters...</span></div>'

export async function runEarnEntry() {
  // dist/earn.html shows the spinner already and may run this before it is parsed; index.html shows the home
  // page's HTML (or the shell) until it is replaced here.
  if (!document.getElementById('earn-spinner')) {
    const main = document.querySelector('#root main')
    if (main) main.innerHTML = SPINNER
    else document.getElementById('root')?.replaceChildren(Object.assign(document.createElement('main'), { id: 'main', innerHTML: SPINNER }))
  }
  // dist/earn.html's inline script has usually sent the click (and redirected) already.
  const click = window.__growletterEarnClick ?? recordEarnClick(earnCodeOf(window.location.pathname) ?? '')
  // The fingerprint library waits for an idle moment of the page before it reads the browser, so it does not
  // hold up the app that starts at the destination.
  finishEarnClick(await click, () => getFingerprint(FINGERPRINT_WAIT_MS))
}
