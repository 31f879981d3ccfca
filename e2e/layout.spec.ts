/**
 * Every route of every role, on a phone (390 × 844) and on a desk (1280 × 800): nothing scrolls sideways, the tab
 * has a title of its own, no picture shows the broken-image icon, and axe finds nothing serious (e2e/pages/
 * layout-checks.ts). The signed-in roles' menu pages are checked on a phone where e2e/menus.spec.ts reaches them by
 * clicking, so the phone walks here cover the rest. Each role logs in once per run; its storage state is reused for
 * all its routes, so the whole walk stays fast.
 */
import { expect, test, type Browser } from '@playwright/test'
import { DEMO_ACCOUNTS, dashboardOf } from './pages/auth'
import { logInAsAdmin } from './pages/admin'
import { logInAs } from './pages/advertiser'
import { checkPage, settle } from './pages/layout-checks'
import { rolePages } from './pages/menus'
import { visit } from './pages/visit'
import { darkModulesOfSvg, expectedDarkModules, svgOfDataUrl } from '../src/features/account/qr-matrix'

const CAMPAIGN = '20000000-0000-4000-a000-000000000001'

const routes = {
  visitor: [
    '/',
    '/login',
    '/register',
    '/forgot-password',
    '/reset-password',
    '/help',
    '/terms',
    '/privacy',
    '/about',
    '/cookies',
    '/gdpr',
    '/contact',
    '/audiences',
    '/campaigns',
    '/newsletters',
    `/newsletters/${CAMPAIGN}`,
    '/newsletters/unavailable',
    '/confirm-subscription',
    `/campaign/${CAMPAIGN}`,
    // A source no other spec clicks: this visit records a click from this browser, which would make the
    // magic-link spec's first click a duplicate visitor.
    `/campaign/habits-hub/${CAMPAIGN}`,
    '/no-such-page',
  ],
  advertiser: [
    '/dashboard/advertiser',
    '/dashboard/advertiser/analytics',
    '/dashboard/advertiser/subscribers',
    '/dashboard/advertiser/partners',
    '/dashboard/advertiser/manage',
    '/dashboard/advertiser/submit-newsletter',
    '/dashboard/advertiser/wallet',
    '/dashboard/advertiser/disputes',
    '/dashboard/account',
  ],
  publisher: [
    '/dashboard/publisher',
    '/dashboard/publisher/sources',
    '/dashboard/publisher/stats',
    '/dashboard/publisher/payouts',
    '/dashboard/publisher/disputes',
    '/dashboard/account',
  ],
  admin: [
    '/dashboard/admin',
    '/dashboard/admin/catalog',
    '/dashboard/admin/disputes',
    '/dashboard/admin/users',
    '/dashboard/admin/money',
    '/dashboard/admin/audit-log',
    `/campaign/admin/${CAMPAIGN}`,
    '/dashboard/account',
  ],
} as const
type Role = keyof typeof routes

// 360 px is the narrowest phone we promise: there only the sideways scroll is checked (the rest is width-free).
const viewports = {
  phone: { width: 390, height: 844 },
  desk: { width: 1280, height: 800 },
  narrow: { width: 360, height: 740 },
} as const

// One storage state per role for the whole file: the session lives in local storage, which a storage state carries.
const states = new Map<Role, Awaited<ReturnType<Awaited<ReturnType<Browser['newContext']>>['storageState']>>>()
async function stateOf(browser: Browser, role: Role) {
  if (role === 'visitor') return undefined
  if (!states.has(role)) {
    const context = await browser.newContext()
    const page = await context.newPage()
    if (role === 'admin') await logInAsAdmin(page)
    else await logInAs(page, DEMO_ACCOUNTS[role], dashboardOf[role])
    states.set(role, await context.storageState())
    await context.close()
  }
  return states.get(role)
}

/**
 * The routes a walk at this size visits. On a phone, e2e/menus.spec.ts already reaches every page of a signed-in
 * role's menus by clicking and checks each one there as this walk would (checkPage with axe); this walk keeps the
 * role's pages that no menu lists (the admin's campaign page) and every page a visitor sees.
 */
function routesOf(role: Role, viewportName: keyof typeof viewports): readonly string[] {
  if (viewportName !== 'phone' || role === 'visitor') return routes[role]
  const inMenus = new Set(rolePages[role].map((page) => page.path))
  return routes[role].filter((path) => !inMenus.has(path))
}

// Each walk opens its own browser context from a saved sign-in, so the walks may share the two workers instead of
// keeping one of them busy for the whole file.
test.describe.configure({ mode: 'parallel' })

for (const [viewportName, viewport] of Object.entries(viewports) as [
  keyof typeof viewports,
  (typeof viewports)[keyof typeof viewports],
][]) {
  for (const role of Object.keys(routes) as Role[]) {
    const walked = routesOf(role, viewportName)
    if (walked.length === 0) continue
    test(`${role} routes on a ${viewportName} (${viewport.width} × ${viewport.height})`, async ({ browser }) => {
      test.setTimeout(300_000)
      const context = await browser.newContext({ viewport, storageState: await stateOf(browser, role) })
      const page = await context.newPage()
      const titles = new Map<string, string>()
      for (const [index, path] of walked.entries()) {
        await test.step(path, async () => {
          await visit(page, path, index === 0)
          await settle(page)
          const title = await page.title()
          expect.soft(title, `${path} has a title`).toMatch(/\S/)
          const clash = [...titles].find(([, other]) => other === title)
          expect.soft(clash?.[0], `${path} shares its title "${title}" with`).toBeUndefined()
          titles.set(path, title)
          // axe looks at each route once, on the phone, where layouts differ most from the designs it was built on;
          // the desk walk checks the rest (keeps the walk inside its time budget).
          await checkPage(page, viewportName === 'phone', viewportName === 'narrow')
        })
      }
      await context.close()
    })
  }
}

test('the two-factor QR code on the account page loads and is the otpauth:// URI the server issued', async ({
  browser,
}) => {
  const context = await browser.newContext({ storageState: await stateOf(browser, 'publisher') })
  const page = await context.newPage()
  await page.goto('/dashboard/account')
  const section = page.getByRole('region', { name: 'Two-factor sign-in' })
  const enrolled = page.waitForResponse((r) => r.url().endsWith('/auth/v1/factors') && r.request().method() === 'POST')
  await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click()
  const uri = ((await (await enrolled).json()) as { totp: { uri: string } }).totp.uri
  expect(uri).toMatch(/^otpauth:\/\/totp\//)
  const qr = section.getByTestId('mfa-qr')
  await expect(qr).toBeVisible()
  // The picture loaded (the old data URL broke at its '#'), and its modules are exactly the QR code of the URI.
  expect(await qr.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth))).toBeGreaterThan(0)
  const src = (await qr.getAttribute('src'))!
  expect(darkModulesOfSvg(svgOfDataUrl(src))).toEqual(expectedDarkModules(uri, 2, 'M'))
  await context.close()
})
