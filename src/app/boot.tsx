/**
 * Starts the app in the page: hydrates the static HTML prerendered for this path (public pages, see
 * scripts/prerender.ts) or renders over the first-paint shell every other path is served with. The app is
 * imported dynamically so that a failure at start-up (missing environment, a broken chunk) shows the
 * 'Application Error' screen instead of a blank page (SPEC §2 Global screens).
 */
import { startTransition } from 'react'
import { createRoot, hydrateRoot, type Root } from 'react-dom/client'
import { hydrate as hydrateQueries, type DehydratedState } from '@tanstack/react-query'
import { FatalErrorScreen } from '@/components/fatal-error-screen'
import { createQueryClient } from '@/lib/query-client'
import { deferHydration } from '@/lib/deferred-hydration'
import { hasStoredSession } from '@/lib/supabase'
import { yieldToMain } from '@/lib/yield-to-main'
import { EARN_PATH } from '@/config/paths'

/** The id of the JSON the prerender embeds: the public data the page was rendered with. */
export const PRERENDERED_DATA_ID = 'prerendered-queries'

/**
 * A query cache holding the data the prerendered page shows, so hydration renders the same content. It was
 * fetched when the site was built: marked stale, it is fetched again at once, behind the visible page.
 */
function prerenderedQueryClient() {
  const client = createQueryClient()
  const json = document.getElementById(PRERENDERED_DATA_ID)?.textContent
  if (!json) return client
  try {
    const state = JSON.parse(json) as DehydratedState
    for (const query of state.queries) query.state.dataUpdatedAt = 0
    hydrateQueries(client, state)
  } catch (error) {
    console.error('Prerendered data could not be read', error)
  }
  return client
}

/**
 * The page chunks of the routes people land on, started together with the app chunk instead of after it
 * (app → router → page in series). The same imports as the router's, so the router finds them loaded.
 */
const landingPages: ReadonlyArray<readonly [RegExp, () => Promise<unknown>]> = [
  [/^\/$/, () => import('./routes/home')],
  [/^\/audiences\/?$/, () => import('./routes/audiences')],
  [/^\/(newsletters|campaigns)\/?$/, () => import('./routes/newsletters')],
  [/^\/newsletters\/unavailable\/?$/, () => import('./routes/newsletters-unavailable')],
  [EARN_PATH, () => Promise.all([import('./routes/earn'), import('./routes/newsletters')])],
  [/^\/login\/?$/, () => import('./routes/login')],
  [/^\/register\/?$/, () => import('./routes/register')],
]

const normalise = (pathname: string) => pathname.replace(/\/+$/, '') || '/'

export function boot() {
  const { pathname } = window.location
  // Only a head start: if it fails, the router's own import reports the error.
  landingPages
    .find(([pattern]) => pattern.test(pathname))?.[1]()
    .catch(() => undefined)

  const container = document.getElementById('root')!
  // The prerendered HTML shows the page as a signed-out visitor with a plain address sees it; a stored
  // session, a query or a hash (read by the page as it renders) render afresh instead, over the HTML.
  const { search, hash } = window.location
  const hydrating = container.dataset.prerendered === normalise(pathname) && !search && !hash && !hasStoredSession()
  let root: Root | null = hydrating ? null : createRoot(container)

  // Each step in a task of its own (the app's modules evaluating, the embedded data read, the router made, the
  // root created): together they were one long task between the first paint and the page answering input.
  return import('./app')
    .then(async ({ createApp }) => {
      await yieldToMain()
      const client = hydrating ? prerenderedQueryClient() : undefined
      await yieldToMain()
      return createApp({ hydrating, client })
    })
    .then(async (app) => {
      await yieldToMain()
      if (root) root.render(app)
      // As a transition, hydration yields to the browser every few milliseconds instead of blocking it for
      // the whole tree: the page, visible since the HTML arrived, stays responsive meanwhile.
      else {
        // Sections below the fold keep their HTML until they come into view or are interacted with.
        deferHydration()
        startTransition(() => void (root = hydrateRoot(container, app)))
      }
    })
    .catch((error: unknown) => {
      console.error('Application failed to start', error)
      root ??= createRoot(container)
      root.render(<FatalErrorScreen error={error} />)
    })
}
