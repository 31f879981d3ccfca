/**
 * Entry point. The app is imported dynamically so that a failure at start-up (missing environment,
 * a broken chunk) shows the 'Application Error' screen instead of a blank page (SPEC §2 Global screens).
 */
import './index.css'
import { createRoot } from 'react-dom/client'
import { FatalErrorScreen } from '@/components/fatal-error-screen'

/**
 * The page chunks of the routes people land on, started together with the app chunk instead of after it
 * (app → router → page in series). The same imports as the router's, so the router finds them loaded.
 * `/earn/{code}` also starts the list it redirects to.
 */
const landingPages: ReadonlyArray<readonly [RegExp, () => Promise<unknown>]> = [
  [/^\/$/, () => import('./app/routes/home')],
  [/^\/audiences\/?$/, () => import('./app/routes/audiences')],
  [/^\/(newsletters|campaigns)\/?$/, () => import('./app/routes/newsletters')],
  [/^\/earn(\/[^/]*)?\/?$/, () => Promise.all([import('./app/routes/earn'), import('./app/routes/newsletters')])],
  [/^\/login\/?$/, () => import('./app/routes/login')],
  [/^\/register\/?$/, () => import('./app/routes/register')],
]

// Only a head start: if it fails, the router's own import reports the error.
landingPages.find(([pattern]) => pattern.test(window.location.pathname))?.[1]().catch(() => undefined)

const container = document.getElementById('root')!
const root = createRoot(container)

import('./app/app')
  .then(({ App }) => root.render(<App />))
  .catch((error: unknown) => {
    console.error('Application failed to start', error)
    root.render(<FatalErrorScreen error={error} />)
  })
