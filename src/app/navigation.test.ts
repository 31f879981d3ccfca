/**
 * The route table is the only list of pages (STYLE "Routes and menus"): every page has a title, every page of a
 * role is in that role's menu or reached from a page that is, redirects are marked, every path the SPA links
 * to is routed, and the list the menu walk (e2e/menus.spec.ts) must reach is the table's.
 */
import { describe, expect, it } from 'vitest'
import { matchRoutes, type RouteObject, type UIMatch } from 'react-router-dom'
import { routes } from '@/app/router'
import {
  buildNavigation,
  breadcrumbsOf,
  currentItem,
  routedPages,
  titleOfMatches,
  type DashboardArea,
  type RoutedPage,
} from '@/app/navigation'
import { paths } from '@/config/paths'
import { documentTitle } from '@/lib/page-title'
import { rolePages } from '../../e2e/pages/menus'

const pages = routedPages(routes)
const navigation = buildNavigation(routes)
const areas: DashboardArea[] = ['advertiser', 'publisher', 'admin']

/** The tab title of a path, as the root layout computes it from the router's matches. */
function titleAt(path: string) {
  const matches = matchRoutes(routes, path) ?? []
  const ui = matches.map((m): UIMatch => ({
    id: m.route.id ?? '',
    pathname: m.pathname,
    params: m.params,
    data: undefined,
    loaderData: undefined,
    handle: m.route.handle,
  }))
  return documentTitle(titleOfMatches(ui))
}

const menuPaths = (area: DashboardArea) => [
  ...navigation[area].sections.flatMap((s) => s.items.map((i) => i.to)),
  ...navigation[area].account.map((i) => i.to),
]

const isParametrised = (page: RoutedPage) => page.path.includes(':') || page.path.includes('*')

/** Every route object of the table, nested ones included. */
const allRoutes = (list: RouteObject[]): RouteObject[] => list.flatMap((r) => [r, ...allRoutes(r.children ?? [])])

describe('the route table', () => {
  it('gives every routed page a title, and marks every route that only redirects', () => {
    for (const route of allRoutes(routes)) {
      const handle = route.handle as { title?: string; redirect?: true } | undefined
      if (route.lazy) expect(handle?.title, `route ${route.path ?? '(index)'} has a title`).toBeTruthy()
      // A route drawn by an element of its own is a redirect (a <Navigate>), except the root layouts.
      if (route.element && route.handle && !('navigation' in (route.handle as object)))
        expect(handle?.redirect, `route ${route.path} is a marked redirect`).toBe(true)
    }
  })

  it('gives every page a tab title of its own: the page, its area, then the product', () => {
    const titled = pages.filter((p) => !p.meta.redirect && !isParametrised(p))
    expect(titled.length).toBeGreaterThan(35)
    const titles = titled.map((p) => titleAt(p.path))
    expect(titles.filter((t) => t.startsWith('Page not found'))).toEqual([])
    expect(new Set(titles).size).toBe(titles.length)
    expect(titleAt('/dashboard/advertiser/wallet')).toBe('Wallet · Advertiser · Growletter')
    expect(titleAt('/dashboard/publisher/disputes')).toBe('Disputes · Influencer · Growletter')
    expect(titleAt('/dashboard/admin/audit-log')).toBe('Audit log · Admin · Growletter')
    expect(titleAt('/newsletters/abc')).toBe('Newsletter · Growletter')
    expect(titleAt('/no/such/page')).toBe('Page not found · Growletter')
    expect(titleAt('/')).toMatch(/^Growletter · /)
  })

  it('routes every path the SPA links to (src/config/paths.ts) to a page, not the not-found page', () => {
    const all = Object.values(paths).flatMap((value) =>
      typeof value === 'string' ? [value] : typeof value === 'function' ? [value('x', 'y')] : Object.values(value),
    )
    expect(all.length).toBeGreaterThan(35)
    for (const path of all) {
      const deepest = matchRoutes(routes, path)?.at(-1)?.route
      expect(deepest?.path, `${path} is routed`).not.toBe('*')
      expect((deepest?.handle as { title?: string } | undefined)?.title, `${path} has a page`).toBeTruthy()
    }
  })

  it.each(areas)('puts every %s page in its menu, or makes it a child of a page in the menu', (area) => {
    const own = pages.filter((p) => (p.meta.role === area || p.meta.role === 'user') && !p.meta.redirect)
    expect(own.length).toBeGreaterThan(4)
    const menu = menuPaths(area)
    for (const page of own) {
      const way = page.meta.menu ? page.path : page.meta.parent
      expect(way, `${page.path} has a way in`).toBeDefined()
      expect(menu, `${page.path} is reached from ${way}`).toContain(way)
    }
  })

  it('keeps redirects out of every menu', () => {
    const redirects = pages.filter((p) => p.meta.redirect).map((p) => p.path)
    expect(redirects).toEqual(expect.arrayContaining(['/dashboard', '/dashboard/advertiser/newsletters', '/admin/*']))
    for (const area of areas) for (const path of redirects) expect(menuPaths(area)).not.toContain(path)
  })

  it('lists the pages that were in no menu: subscribers, manage, disputes, catalog and audit log', () => {
    expect(menuPaths('advertiser')).toEqual(
      expect.arrayContaining([paths.advertiser.subscribers, paths.advertiser.manage, paths.advertiser.disputes]),
    )
    expect(menuPaths('publisher')).toContain(paths.publisher.disputes)
    expect(menuPaths('admin')).toEqual(
      expect.arrayContaining([paths.admin.disputes, paths.admin.catalog, paths.admin.auditLog, paths.account]),
    )
    // Eight admin pages in short sections, so the phone's switcher stays a short list.
    expect(navigation.admin.sections.map((s) => s.title)).toEqual(['Review', 'Market', 'Money', 'People'])
  })

  it('matches the landing page only on its own path, the others on their sub-paths too', () => {
    const items = navigation.advertiser.sections.flatMap((s) => s.items)
    expect(items.find((i) => i.to === paths.advertiser.root)?.end).toBe(true)
    expect(currentItem(items, '/dashboard/advertiser/wallet/')?.label).toBe('Wallet')
    expect(currentItem(items, '/dashboard/advertiser')?.label).toBe('Overview')
    // A deep page is named by the entry it lies under: a dispute's page by Disputes, not the switcher's "Sections".
    const publisher = navigation.publisher.sections.flatMap((s) => s.items)
    expect(currentItem(publisher, `${paths.publisher.disputes}/00000000-0000-4000-8000-000000000001`)?.label).toBe(
      'Disputes',
    )
  })

  it('leads a deep page back to the page it is reached from', () => {
    expect(breadcrumbsOf(pages, paths.advertiser.submitNewsletter)).toEqual([
      { label: 'Overview', to: paths.advertiser.root },
    ])
    expect(breadcrumbsOf(pages, paths.advertiser.wallet)).toEqual([])
  })

  it.each(areas)('gives the %s menu walk (e2e/menus.spec.ts) exactly the pages of the table', (area) => {
    const expected = pages
      .filter((p) => (p.meta.role === area || p.meta.role === 'user') && !p.meta.redirect && !isParametrised(p))
      .map((p) => p.path)
    expect(rolePages[area].map((p) => p.path).sort()).toEqual([...new Set(expected)].sort())
  })
})
