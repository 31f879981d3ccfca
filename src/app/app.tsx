import { useEffect } from 'react'
import type { QueryClient } from '@tanstack/react-query'
import { matchRoutes, RouterProvider } from 'react-router-dom'
import { yieldToMain } from '@/lib/yield-to-main'
import { AppProviders } from './providers'
import { createRouter, routes } from './router'

/**
 * Marks the document once the app has rendered (or hydrated) and handles events: before that, a
 * prerendered page is only HTML. End-to-end tests wait for it before they interact.
 */
function AppReady() {
  useEffect(() => {
    document.documentElement.dataset.appReady = 'true'
  }, [])
  return null
}

/**
 * The app for this page load. Before hydrating a prerendered page, the lazy route modules of the current
 * address are loaded, so the router's first render is the page the HTML already shows (not a blank
 * fallback); a plain start leaves that to the router.
 */
export async function createApp({ hydrating, client }: { hydrating: boolean; client?: QueryClient }) {
  if (hydrating) {
    const matches = matchRoutes(routes, window.location) ?? []
    await Promise.all(
      matches.map(async ({ route }) => {
        if (typeof route.lazy !== 'function') return
        const loaded = await route.lazy()
        Object.assign(route, loaded, { lazy: undefined })
      }),
    )
    await yieldToMain()
  }
  const router = createRouter()
  return (
    <AppProviders client={client}>
      <RouterProvider router={router} />
      <AppReady />
    </AppProviders>
  )
}
