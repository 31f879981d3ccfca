/**
 * Every page of each role has a way in (STYLE "Routes and menus"): the role signs in, and from its landing page
 * the walk clicks whatever its menus offer, page after page, without ever typing an address. On a desk it uses
 * the sidebar (and breadcrumbs); on a phone the section switcher, and then the header's slide-in menu. Each page
 * reached must show its own heading and tab title, and the walk fails on any page of the role (e2e/pages/menus.ts,
 * which src/app/navigation.test.ts keeps equal to the route table) that no click reached.
 */
import { expect, test, type Page } from '@playwright/test'
import { DEMO_ACCOUNTS, dashboardOf } from './pages/auth'
import { logInAsAdmin } from './pages/admin'
import { logInAs } from './pages/advertiser'
import { checkPage, settle } from './pages/layout-checks'
import { rolePages, type MenuRole } from './pages/menus'

const viewports = { desk: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const
const navLabel: Record<MenuRole, string> = {
  advertiser: 'Advertiser dashboard',
  publisher: 'Publisher dashboard',
  admin: 'Admin dashboard',
}

/**
 * One way through the menus, used as a person uses it: `next` opens the menu (if it is one that opens), reads what
 * it offers that does not lead to the current page, and picks the first entry not tried yet, or closes the menu when
 * every entry has been tried. Keys are link addresses or item names. `choose` picks a given entry.
 */
type MenuKind = {
  name: string
  next: (page: Page, role: MenuRole, tried: Set<string>) => Promise<string | undefined>
  choose: (page: Page, role: MenuRole, key: string) => Promise<void>
}

const pathOf = (page: Page) => new URL(page.url()).pathname
const firstUntried = (keys: string[], tried: Set<string>) => keys.find((key) => !tried.has(key))

const sidebar: MenuKind = {
  name: 'the sidebar',
  async next(page, role, tried) {
    const links = page.getByTestId('dashboard-shell').locator('nav a[href^="/"]')
    const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')!))
    const key = firstUntried(
      hrefs.filter((href) => href !== pathOf(page)),
      tried,
    )
    if (key !== undefined) await sidebar.choose(page, role, key)
    return key
  },
  async choose(page, _role, href) {
    await page.getByTestId('dashboard-shell').locator(`nav a[href="${href}"]`).first().click()
  },
}

const switcher: MenuKind = {
  name: "the phone's section switcher",
  async next(page, role, tried) {
    await page.getByRole('navigation', { name: navLabel[role] }).getByRole('button').click()
    const menu = page.getByRole('menu')
    const items = menu.getByRole('menuitem')
    await expect(items.first()).toBeVisible()
    const names = await items.evaluateAll((els) =>
      els.filter((el) => el.getAttribute('aria-current') !== 'page').map((el) => el.textContent!.trim()),
    )
    const key = firstUntried(names, tried)
    if (key !== undefined) {
      await menu.getByRole('menuitem', { name: key, exact: true }).click()
      return key
    }
    await page.keyboard.press('Escape')
    await expect(menu).toBeHidden()
    return undefined
  },
  async choose(page, role, name) {
    await page.getByRole('navigation', { name: navLabel[role] }).getByRole('button').click()
    await page.getByRole('menuitem', { name, exact: true }).click()
  },
}

const mobileMenu: MenuKind = {
  name: 'the slide-in menu',
  async next(page, _role, tried) {
    await page.getByRole('button', { name: 'Open menu' }).click()
    const dialog = page.getByRole('dialog', { name: 'Menu' })
    // The dashboard's sections, not the user block's own Dashboard and Account buttons.
    const links = dialog.locator('nav[aria-label$=" sections"] a')
    await expect(links.first()).toBeVisible()
    const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')!))
    const key = firstUntried(
      hrefs.filter((href) => href !== pathOf(page)),
      tried,
    )
    if (key !== undefined) {
      await dialog.locator(`nav a[href="${key}"]`).click()
      return key
    }
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    return undefined
  },
  async choose(page, _role, href) {
    await page.getByRole('button', { name: 'Open menu' }).click()
    await page.getByRole('dialog', { name: 'Menu' }).locator(`nav a[href="${href}"]`).click()
  },
}

/** The page shown now: its address, once its own heading is there (the previous page's is marked stale). */
async function arrive(page: Page, from: string | null) {
  if (from !== null)
    await expect.poll(() => pathOf(page), { message: 'the click leads to another page' }).not.toBe(from)
  const heading = page.locator('main h1:not([data-stale])').first()
  await expect(heading).toBeVisible()
  const text = (await heading.textContent())!.trim()
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  await expect(page, `the tab of ${pathOf(page)} names its page`).toHaveTitle(new RegExp(`^${escaped} · `))
  await page.locator('main h1').evaluateAll((hs) => hs.forEach((h) => h.setAttribute('data-stale', '')))
  return { path: pathOf(page), heading: text }
}

/**
 * Clicks every entry the menu offers on every page it reaches; returns each page reached with its heading.
 * `check` runs on each page the first time it is reached, as a person first sees it.
 */
async function walk(page: Page, role: MenuRole, menu: MenuKind, check?: (page: Page) => Promise<void>) {
  const reached = new Map<string, string>()
  const first = await arrive(page, null)
  reached.set(first.path, first.heading)
  await check?.(page)
  const tried = new Set<string>()
  for (;;) {
    const from = pathOf(page)
    const next = await menu.next(page, role, tried)
    if (next === undefined) break
    tried.add(next)
    const here = await arrive(page, from)
    if (!reached.has(here.path)) await check?.(page)
    reached.set(here.path, here.heading)
  }
  return reached
}

async function signIn(page: Page, role: MenuRole) {
  if (role === 'admin') await logInAsAdmin(page)
  else await logInAs(page, DEMO_ACCOUNTS[role], dashboardOf[role])
}

function expectAllReached(reached: Map<string, string>, role: MenuRole, how: string) {
  for (const { path, heading } of rolePages[role]) {
    expect.soft(reached.get(path), `${path} (${heading}) is reached by clicking ${how}`).toBe(heading)
  }
  expect(test.info().errors).toEqual([])
}

for (const role of Object.keys(rolePages) as MenuRole[]) {
  test(`the ${role} reaches every page of theirs from the landing page through the desk's sidebar`, async ({
    page,
  }) => {
    await page.setViewportSize(viewports.desk)
    await signIn(page, role)
    expect(pathOf(page)).toBe(dashboardOf[role])
    expectAllReached(await walk(page, role, sidebar), role, sidebar.name)
  })

  test(`the ${role} reaches every page of theirs on a phone, through the section switcher and the slide-in menu`, async ({
    page,
  }) => {
    await page.setViewportSize(viewports.phone)
    await signIn(page, role)
    expect(pathOf(page)).toBe(dashboardOf[role])
    // Each page, as the switcher first reaches it, passes the layout checks on a phone (e2e/layout.spec.ts leaves
    // these pages to this walk): no sideways scroll, no broken picture, nothing serious for axe.
    const checked = async (at: Page) =>
      test.step(`layout of ${pathOf(at)}`, async () => {
        await settle(at)
        await checkPage(at, true, false)
      })
    expectAllReached(await walk(page, role, switcher, checked), role, switcher.name)
    // Back to the landing page by the switcher itself, then the same walk through the header's menu.
    await switcher.choose(page, role, rolePages[role][0]!.heading)
    await expect.poll(() => pathOf(page)).toBe(dashboardOf[role])
    expectAllReached(await walk(page, role, mobileMenu), role, mobileMenu.name)
  })
}
