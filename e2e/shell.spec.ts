/** The shell in a real browser: header and footer, the mobile menu at 390 px, and axe on every public page. */
import { expect, test, type Page } from '@playwright/test'
import { expectNoSeriousA11yViolations, seriousViolations } from './pages/axe'
import { visit } from './pages/visit'

const PUBLIC_PAGES = [
  '/help',
  '/terms',
  '/privacy',
  '/about',
  '/cookies',
  '/gdpr',
  '/contact',
  '/forgot-password',
  '/no-such-page',
]

test('visitors get the navigation, Log in / Sign Up and the footer', async ({ page }) => {
  await page.goto('/about')
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav.getByRole('link')).toHaveText(['Home', 'Newsletters', 'Audiences', 'Help', 'About'])
  await expect(nav.getByRole('link', { name: 'About' })).toHaveAttribute('aria-current', 'page')
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign Up' })).toBeVisible()
  const footer = page.getByRole('contentinfo')
  await expect(footer).toContainText(
    'The best platform to connect newsletters to influencers for explosive newsletter growth.',
  )
  await expect(footer).toContainText(`© ${new Date().getFullYear()}`)
  await expect(footer.getByRole('link', { name: /Featured on Product Hunt/ })).toBeVisible()
  await footer.getByRole('link', { name: 'Cookie Policy' }).click()
  await expect(page).toHaveURL(/\/cookies$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Cookie Policy' })).toBeVisible()
})

test('the landing page shows newsletters and audiences from the database', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('list', { name: 'active newsletters' }).getByRole('listitem').first()).toBeVisible()
  await expect(
    page.getByRole('list', { name: 'verified audience sources' }).getByRole('listitem').first(),
  ).toBeVisible()
})

test.describe('on a 390 px phone', () => {
  // With motion, as most people see it: the other specs ask for reduced motion (playwright.config.ts).
  test.use({ viewport: { width: 390, height: 844 }, reducedMotion: 'no-preference' })

  test('the menu slides in, highlights the route, traps focus, and closes on Escape and on navigation', async ({
    page,
  }) => {
    await page.goto('/help')
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign Up' })).toHaveCount(0)
    const button = page.getByRole('button', { name: 'Open menu' })
    await button.click()
    const menu = page.getByRole('dialog', { name: 'Menu' })
    await expect(menu).toBeVisible()
    await expect(menu.getByRole('link', { name: 'Help' })).toHaveAttribute('aria-current', 'page')
    await expect(menu.getByRole('link', { name: 'Log in' })).toBeVisible()
    await expect(menu.getByRole('link', { name: 'Sign Up' })).toBeVisible()
    for (let step = 0; step < 10; step += 1) {
      await page.keyboard.press('Tab')
      expect(await menu.evaluate((element) => element.contains(document.activeElement))).toBe(true)
    }
    await page.keyboard.press('Escape')
    await expect(menu).toBeHidden()
    await expect(button).toBeFocused()

    await button.click()
    await menu.getByRole('link', { name: 'About' }).click()
    await expect(page).toHaveURL(/\/about$/)
    await expect(menu).toBeHidden()
  })

  test('axe finds no serious violations with the menu open', async ({ page }) => {
    await page.goto('/')
    await page.getByRole('button', { name: 'Open menu' }).click()
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible()
    expect(await seriousViolations(page)).toEqual([])
  })
})

// The public pages are judged in one tab of their own, each reached inside the running app as a link would (axe is
// about the page, not its load): one load of the app and of axe for the nine instead of one each. A failing test
// restarts the worker, and the next page then loads the app afresh.
let publicTab: Page | undefined
test.afterAll(async () => {
  await publicTab?.context().close()
  publicTab = undefined
})

for (const path of PUBLIC_PAGES) {
  test(`axe finds no serious violations on ${path}`, async ({ browser }) => {
    publicTab ??= await (await browser.newContext()).newPage()
    const page = publicTab
    await visit(page, path)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expectNoSeriousA11yViolations(page)
  })
}
