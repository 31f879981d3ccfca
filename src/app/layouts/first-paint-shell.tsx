/**
 * What a cold load of any path that is not prerendered paints before the app's JavaScript has run
 * (dashboards, sign-in pages, unknown paths): the header and a spinner where the page will be. The
 * prerender writes it into index.html; see scripts/prerender-plugin.ts.
 */
import { PageSpinner } from '@/components/page-spinner'
import { SiteHeader } from './site-header'

export function FirstPaintShell() {
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader />
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        <PageSpinner />
      </main>
    </div>
  )
}
