/**
 * The `/earn/{code}` fast path's entry (see src/main.tsx): the redirect spinner as plain HTML, the click,
 * the redirect. Imports nothing of React, the router or the Supabase client.
 */
import { getFingerprint } from '@/lib/device-info'
import { earnCodeOf, runEarnFastPath } from '@/features/magic-link/lib/earn-fast-path'

/**
 * How long the click waits for the fingerprint. It is computed while the rest of the page loads and is
 * usually ready well within the redirect budget; a slow device still gets its fingerprint recorded
 * rather than 'unknown', at the cost of a later redirect.
 */
const FINGERPRINT_WAIT_MS = 1500
/** The library waits for an idle moment before reading the browser; this page has nothing else to do. */
const FINGERPRINT_IDLE_DELAY_MS = 10

// Lucide's loader icon, as PageSpinner draws it.
const SPINNER =
  '<div role="status" class="flex min-h-[40vh] items-center justify-center gap-2 text-muted-foreground">' +
  '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="size-5 animate-spin" aria-hidden="true"><path d="M21 12a9 9 0 1 1-6.219-8.56"/></svg>' +
  '<span>Redirecting to newsletters...</span></div>'

export async function runEarnEntry() {
  const fingerprint = getFingerprint(FINGERPRINT_WAIT_MS, FINGERPRINT_IDLE_DELAY_MS)
  const main = document.querySelector('#root main')
  if (main) main.innerHTML = SPINNER
  else document.getElementById('root')!.innerHTML = `<main id="main">${SPINNER}</main>`
  await runEarnFastPath(earnCodeOf(window.location.pathname) ?? '', () => fingerprint)
}
