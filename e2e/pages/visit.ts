import { expect, type Page } from '@playwright/test'

/**
 * Opens `path` in the running app the way a click on a link does (the router follows popstate) instead of loading
 * the whole app anew, which costs the browser a fresh parse and run of the app's code for every address. `first`
 * (a page that shows no app yet) loads it with `page.goto`.
 *
 * The old page stays on screen while the next one's code loads, so its headings are marked stale first. Every page
 * has a title of its own (e2e/layout.spec.ts checks that), so a new title is the sure sign of the new page: the page
 * itself watches its <head> for it (a MutationObserver, no polling on every frame). The old page may mount its
 * heading anew while the next page's code loads (a walk once read /no-such-page with the campaign page's title that
 * way), so a fresh heading alone is not. Only a page that wrongly keeps the old title is looked at after the bounded
 * wait, by its heading, so the title checks name it instead of the walk hanging.
 */
export async function visit(page: Page, path: string, first = page.url() === 'about:blank') {
  if (first) {
    await page.goto(path)
    return
  }
  const changed = await page.evaluate(
    ({ to, timeout }) =>
      new Promise<boolean>((resolve) => {
        document.querySelectorAll('main h1').forEach((h1) => h1.setAttribute('data-stale', ''))
        const before = document.title
        const observer = new MutationObserver(() => {
          if (document.title !== before) done(true)
        })
        const timer = setTimeout(() => done(false), timeout)
        function done(result: boolean) {
          observer.disconnect()
          clearTimeout(timer)
          resolve(result)
        }
        observer.observe(document.head, { subtree: true, childList: true, characterData: true })
        window.history.pushState({}, '', to)
        window.dispatchEvent(new PopStateEvent('popstate'))
        if (document.title !== before) done(true)
      }),
    { to: path, timeout: 15_000 },
  )
  if (!changed) await page.waitForFunction(() => document.querySelector('main h1:not([data-stale])') !== null)
}

/**
 * From anywhere in a signed-in dashboard to one of its pages through the desk's sidebar, as a person clicks there,
 * once the page shows its heading. A test already in the app does this instead of `page.goto`, which loaded the whole
 * app anew for the page (its code parsed and run again, every request of the start repeated): between two publisher
 * pages, 0.33 CPU-seconds a `goto` against 0.07 a click (browser, test worker and server; eight of each, twice).
 */
export async function openFromSidebar(page: Page, href: string, heading: string) {
  await page.getByTestId('dashboard-shell').locator(`nav a[href="${href}"]`).first().click()
  await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible()
}
