/**
 * Server rendering for the build (scripts/prerender-plugin.ts loads this in Node): the public pages as a
 * signed-out visitor first sees them, with the public data they show fetched now and embedded, and the
 * first-paint shell for every other path. The browser hydrates a prerendered page (app/boot.tsx).
 */
import { prerender } from 'react-dom/static'
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type RouteObject } from 'react-router-dom'
import { dehydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query'
import { paths } from '@/config/paths'
import { createQueryClient } from '@/lib/query-client'
import { FirstPaintShell } from './layouts/first-paint-shell'
import { AppProviders } from './providers'
import { routes } from './router'

/** The public pages written as static HTML: the content pages and the two public lists. */
export const PRERENDERED_PATHS = [
  paths.home,
  paths.audiences,
  paths.newsletters,
  paths.campaigns,
  paths.newslettersUnavailable,
  paths.help,
  paths.about,
  paths.terms,
  paths.privacy,
  paths.cookies,
  paths.gdpr,
  paths.contact,
]

async function renderAt(tree: RouteObject[], path: string, client: QueryClient): Promise<string> {
  const handler = createStaticHandler(tree)
  const context = await handler.query(new Request(`http://prerender.local${path}`))
  if (context instanceof Response)
    throw new Error(`${path} answered a redirect (${context.status}); it cannot be prerendered`)
  const router = createStaticRouter(handler.dataRoutes, context)
  // `prerender` (unlike renderToString) waits for lazy components inside Suspense boundaries, so the HTML
  // holds what the browser's first render shows instead of a fallback it would have to replace.
  // A component that fails here would only fail quietly (React renders it in the browser instead, with an
  // error in the console and a layout shift): the build fails instead, naming it.
  const errors: unknown[] = []
  const { prelude } = await prerender(
    <AppProviders client={client}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppProviders>,
    // One document: no boundary is split off to be revealed later by script (React outlines large ones).
    { onError: (error) => void errors.push(error), progressiveChunkSize: Number.POSITIVE_INFINITY },
  )
  const html = await new Response(prelude).text()
  if (errors.length)
    throw new AggregateError(errors, `Prerendering ${path} failed: ${String((errors[0] as Error)?.stack ?? errors[0])}`)
  return html
}

export type Prerendered = { html: string; data: DehydratedState | null; failedQueries: string[] }

/**
 * Renders `path` twice: the first render names the queries the page reads, which are then fetched (once,
 * without retries), and the second shows their data. Without the backend the page keeps its loading
 * state, and the browser fetches as usual.
 */
export async function renderPage(path: string): Promise<Prerendered> {
  const client = createQueryClient()
  await renderAt(routes, path, client)
  const queries = client.getQueryCache().getAll()
  const results = await Promise.allSettled(queries.map((query) => query.fetch({ ...query.options, retry: false })))
  const failedQueries = queries
    .filter((_, i) => results[i]!.status === 'rejected')
    .map((q) => JSON.stringify(q.queryKey))
  const html = await renderAt(routes, path, client)
  const data = dehydrate(client)
  return { html, data: data.queries.length ? data : null, failedQueries }
}

export async function renderShell(): Promise<string> {
  // Any address but a navigation link's, so no link of the header shows as the current page.
  return renderAt([{ path: '*', element: <FirstPaintShell /> }], '/loading', createQueryClient())
}
