/**
 * Entry point. The app is imported dynamically so that a failure at start-up (missing environment,
 * a broken chunk) shows the 'Application Error' screen instead of a blank page (SPEC §2 Global screens).
 */
import './index.css'
import { createRoot } from 'react-dom/client'
import { FatalErrorScreen } from '@/components/fatal-error-screen'

const container = document.getElementById('root')!
const root = createRoot(container)

import('./app/app')
  .then(({ App }) => root.render(<App />))
  .catch((error: unknown) => {
    console.error('Application failed to start', error)
    root.render(<FatalErrorScreen error={error} />)
  })
