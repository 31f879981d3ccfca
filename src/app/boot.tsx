/**
 * Starts the app in the page: hydrates the static HTML prerendered for this path (public pages, see
 * scripts/prerender.ts) or renders over the first-paint shell every other path is served with. The app is
 * imported dynamically so that a failure at start-up (missing environment, a broken chunk) shows the
 * 'Application Error' screen instead of a blank page (SPEC §2 Global screens).
 */
import { createRoot, hydrateRoot, type Root } from 'react-dom/client'
import { FatalErrorScreen } from '@/components/fatal-error-screen'
import { hasStoredSession } from '@/lib/supabase'

/**
 * The page chunks of the routes people land on, started together with the app chunk instead of after it
 * (app → router → page in series). The same imports as the router's, so the router finds them loaded.
 */
const landingPages: ReadonlyArray<readonly [RegExp, () => Promise<unknown>]> = [
  [/^\/$/, () => import('./routes/home')],
  [/^\/audiences\/?$/, () => import('./routes/audiences')],
  [/^\/(newsletters|campaigns)\/?$/, () => import('./routes/newsletters')],
  [/^\/newsletters\/unavailable\/?$/, () => import('./routes/newsletters-unavailable')],
  [/^\/earn(\/[^/]*)?\/?$/, () => Promise.all([import('./routes/earn'), import('./routes/newsletters')])],
  [/^\/login\/?$/, () => import('./routes/login')],
  [/^\/register\/?$/, () => import('./routes/register')],
]

const normalise = (pathname: string) => pathname.replace(/\/+$/, '') || '/'

export function boot() {
  const { pathname } = window.location
  // Only a head start: if it fails, the router's own import reports the error.
  landingPages.find(([pattern]) => pattern.test(pathname))?.[1]().catch(() => undefined)

  const container = document.getElementById('root')!
  // The prerendered HTML shows the page as a signed-out visitor sees it; a stored session renders afresh
  // instead, so a signed-in visitor's first render never has to match it.
  const hydrate = container.dataset.prerendered === normalise(pathname) && !hasStoredSession()
  let root: Root | null = hydrate ? null : createRoot(container)

  return import('./app')
    .then(({ App }) => {
      if (root) root.render(<App />)
      else root = hydrateRoot(container, <App />)
    })
    .catch((error: unknown) => {
      console.error('Application failed to start', error)
      root ??= createRoot(container)
      root.render(<FatalErrorScreen error={error} />)
    })
}
