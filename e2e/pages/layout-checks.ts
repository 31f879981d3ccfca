/**
 * What every page must pass wherever a walk reaches it (e2e/layout.spec.ts walks addresses, e2e/menus.spec.ts clicks
 * its way through the menus): nothing scrolls sideways, no picture shows the broken-image icon, and axe finds nothing
 * serious or critical.
 */
import { expect, type Page } from '@playwright/test'
import { seriousViolations, WCAG_AA_TAGS } from './axe'

/** The page is ready once it shows its heading and nothing says it is still loading. */
export async function settle(page: Page) {
  await expect(page.locator('main h1').first()).toBeVisible()
  await expect(
    page.locator('main [role="status"][aria-label^="Loading"], main [data-testid$="-skeleton"]'),
  ).toHaveCount(0)
}

export async function checkPage(page: Page, withAxe: boolean, overflowOnly: boolean) {
  // Read until it is gone: a page may lay itself out again after a resize (a table becoming cards on a phone), and
  // one read right after `setViewportSize` once caught the desk layout (partners.spec.ts). A page that keeps
  // scrolling sideways still fails, with its last width.
  await expect.soft
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
      message: 'scrolls sideways by this many pixels',
    })
    .toBeLessThanOrEqual(0)
  if (overflowOnly) return

  // Lazy pictures below the fold have not been fetched yet: ask for all of them, then look for broken ones.
  const broken = await page.evaluate(async () => {
    const images = Array.from(document.images)
    for (const image of images) image.loading = 'eager'
    await Promise.all(images.map((image) => image.decode().catch(() => undefined)))
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50)))
    return Array.from(document.images)
      .filter((image) => image.complete && image.naturalWidth === 0)
      .map((image) => image.src.slice(0, 80))
  })
  expect.soft(broken, 'broken images').toEqual([])

  if (!withAxe) return
  // Judge the page at rest: no toast half-faded in, no button left hovered.
  await page.mouse.move(0, 0)
  // A toast raised as the page settled (/confirm-subscription's "Invalid confirmation link") mounts first and starts
  // fading in a frame later: wait until every toast has mounted and two frames have passed, so its transition is
  // among the animations awaited below rather than starting while axe measures its contrast.
  await page.waitForFunction(
    () => document.querySelectorAll('[data-sonner-toast]:not([data-mounted="true"])').length === 0,
  )
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'))
  expect.soft(await seriousViolations(page, WCAG_AA_TAGS)).toEqual([])
}
