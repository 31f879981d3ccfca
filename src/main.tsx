/**
 * Entry point. Decides what a first load needs before anything heavy arrives:
 * - `/earn/{code}` opened from outside: `dist/earn.html` records the click and navigates to the destination
 *   without loading this entry; there, the click's toast and fingerprint (app/earn-entry.ts) start beside the app.
 *   A host that serves `index.html` for `/earn` gets the same fast path here (no React before the redirect);
 * - every other path: the app (app/boot.tsx), over the page's prerendered HTML or the first-paint shell.
 */
import './index.css'
import { isEarnPath } from './config/paths'
import { yieldToMain } from './lib/yield-to-main'

/** Shown when even the app's entry chunk cannot load (SPEC §2: 'Application Error' with a refresh button). */
function startupFailed(error: unknown) {
  console.error('Application failed to start', error)
  const root = document.getElementById('root')!
  root.innerHTML =
    '<main role="alert" class="flex min-h-screen flex-col items-center justify-center gap-4 p-6 text-center">' +
    '<h1 class="text-2xl font-bold">Application Error</h1>' +
    '<p class="max-w-xl text-sm text-muted-foreground">The application could not load. Check your connection and refresh.</p>' +
    '<button type="button" class="rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground hover:bg-primary-hover">Refresh</button></main>'
  root.querySelector('button')!.addEventListener('click', () => window.location.reload())
}

/**
 * dist/earn.html left a click to finish here (EARN_PENDING_KEY of features/magic-link/lib/earn-pending.ts, spelt
 * out so that every page's entry carries this one read and not that module).
 */
function arrivedFromEarn() {
  try {
    return window.sessionStorage.getItem('growletter_earn_click') !== null
  } catch {
    return false
  }
}

/** Waits for the document: this module may run before the page is parsed. */
const parsed = () =>
  document.readyState === 'loading'
    ? new Promise<void>((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }))
    : Promise.resolve()

const startApp = () =>
  parsed()
    .then(() => import('./app/boot'))
    // React DOM's evaluation is one task already: the app starts in the next.
    .then(async ({ boot }) => {
      await yieldToMain()
      return boot()
    })
    .catch(startupFailed)

if (isEarnPath(window.location.pathname)) {
  import('./app/earn-entry')
    .then(({ runEarnEntry }) => runEarnEntry())
    // If the fast path cannot load, the app's own /earn page runs the same flow.
    .catch(() => undefined)
    .finally(startApp)
} else {
  void startApp()
  // Arrived from dist/earn.html: the click's toast (shown once the app's toaster mounts) and its fingerprint.
  if (arrivedFromEarn())
    void import('./app/earn-entry').then(({ runPendingEarnClick }) => runPendingEarnClick()).catch(() => undefined)
}
