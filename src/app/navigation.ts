/**
 * What the route table says about each page (its `handle`), and everything generated from it: each role's
 * dashboard menu (the desk sidebar, the phone's section switcher, the mobile menu), the tab title and the
 * breadcrumbs of deep pages (STYLE "Routes and menus"). A page gets its way in by being in the table, never by
 * a second, hand-kept list of links.
 *
 * Pure functions over `RouteObject[]`: `router.tsx` hands the generated menus to every component through the
 * root route's handle (`useNavigation`), so no layout imports the route table back (no import cycle).
 */
import type { RouteObject, UIMatch } from 'react-router-dom'
import type { UserType } from '@/lib/session'

export type DashboardArea = UserType

/** Who a page is for: a visitor (no `role`), one role's dashboard, or any signed-in user (`'user'`). */
export type PageRole = DashboardArea | 'user'

export type MenuPlacement = {
  /** The menu section it is listed under, e.g. 'Money'. */
  section: string
  /** The link's words; the page's title when absent. */
  label?: string
  /** Position inside the role's menu (sections appear in the order of their first entry). */
  order: number
}

export type RouteMeta = {
  /** The page's name: its tab title (before the area's name and the brand) and its breadcrumb. */
  title: string
  role?: PageRole
  /** Listed in the role's menu. A page of a role has `menu` or `parent`. */
  menu?: MenuPlacement
  /** Reached from another page of its role by a link (its path): breadcrumbs lead back there. */
  parent?: string
  /** Not a page: it sends the visitor elsewhere, and is in no menu. */
  redirect?: true
  /** On an area's layout route: the dashboard it opens. */
  area?: { role: DashboardArea; name: string; label: string; navLabel: string }
}

export type MenuItem = { to: string; label: string; end: boolean }
export type MenuSection = { title: string; items: MenuItem[] }
export type AreaMenu = { label: string; navLabel: string; sections: MenuSection[]; account: MenuItem[] }
export type Navigation = Record<DashboardArea, AreaMenu>

/** One routed page of the table with its full path (parameters left as `:name`) and its metadata. */
export type RoutedPage = { path: string; meta: RouteMeta; area?: RouteMeta['area'] }

const join = (base: string, path: string | undefined) => {
  if (!path) return base || '/'
  if (path.startsWith('/')) return path
  return `${base.replace(/\/$/, '')}/${path}`
}

const isMeta = (handle: unknown): handle is RouteMeta =>
  typeof handle === 'object' && handle !== null && typeof (handle as RouteMeta).title === 'string'
const metaOf = (route: RouteObject) => (isMeta(route.handle) ? route.handle : undefined)

/** Every route of the table that has metadata, with its full path; an area's pages inherit its role. */
export function routedPages(routes: RouteObject[], base = '', area?: RouteMeta['area']): RoutedPage[] {
  return routes.flatMap((route) => {
    const path = route.index ? base || '/' : join(base, route.path)
    const meta = metaOf(route)
    const inner = meta?.area ?? area
    // A layout route with an index child is the same page as that index: the index carries the metadata.
    const own = meta && !meta.area ? [{ path, meta: { ...meta, role: meta.role ?? inner?.role }, area: inner }] : []
    return [...own, ...routedPages(route.children ?? [], route.path || route.index ? path : base, inner)]
  })
}

/** Each role's menu: its own pages by section and order, then the pages every signed-in user has (Account). */
export function buildNavigation(routes: RouteObject[]): Navigation {
  const pages = routedPages(routes)
  const areas = routes.flatMap(function areasOf(route): NonNullable<RouteMeta['area']>[] {
    const area = metaOf(route)?.area
    return [...(area ? [area] : []), ...(route.children ?? []).flatMap(areasOf)]
  })
  const item = ({ path, meta }: RoutedPage): MenuItem => ({
    to: path,
    label: meta.menu?.label ?? meta.title,
    // An area's landing page is the prefix of all its pages: it is current only on its own path.
    end: pages.some((p) => p.path.startsWith(`${path}/`)),
  })
  const byOrder = (a: RoutedPage, b: RoutedPage) => a.meta.menu!.order - b.meta.menu!.order
  const inMenu = pages.filter((p) => p.meta.menu && !p.meta.redirect)
  const account = inMenu
    .filter((p) => p.meta.role === 'user')
    .sort(byOrder)
    .map(item)
  return Object.fromEntries(
    areas.map((area) => {
      const sections: MenuSection[] = []
      for (const page of inMenu.filter((p) => p.meta.role === area.role).sort(byOrder)) {
        const title = page.meta.menu!.section
        let section = sections.find((s) => s.title === title)
        if (!section) sections.push((section = { title, items: [] }))
        section.items.push(item(page))
      }
      return [area.role, { label: area.label, navLabel: area.navLabel, sections, account }]
    }),
  ) as Navigation
}

/**
 * The menu entry a path belongs to (the longest matching link), for the phone switcher's label. A deep page under an
 * entry that has pages of its own (a dispute under Disputes) belongs to the longest entry it lies under, so the
 * switcher names where the person is rather than "Sections".
 */
export function currentItem(items: MenuItem[], pathname: string): MenuItem | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  const longest = (list: MenuItem[]) => list.sort((a, b) => b.to.length - a.to.length)[0]
  return (
    longest(items.filter((i) => path === i.to || (!i.end && path.startsWith(`${i.to}/`)))) ??
    longest(items.filter((i) => path.startsWith(`${i.to}/`)))
  )
}

const metaOfMatch = (match: UIMatch) => (isMeta(match.handle) ? match.handle : undefined)

/** The tab title's page part for the current matches: the deepest page's title, then its area's name. */
export function titleOfMatches(matches: UIMatch[]): string {
  const page = [...matches].reverse().find((m) => metaOfMatch(m)?.title && !metaOfMatch(m)?.area)
  const area = matches.map(metaOfMatch).find((meta) => meta?.area)?.area
  const title = page ? metaOfMatch(page)!.title : 'Page not found'
  return area ? `${title} · ${area.name}` : title
}

export type Crumb = { label: string; to: string }

/** The root route's handle: the generated navigation, handed to every component below it. */
export type RootHandle = { navigation: Navigation; pages: RoutedPage[] }

export function rootHandle(routes: RouteObject[]): RootHandle {
  return { navigation: buildNavigation(routes), pages: routedPages(routes) }
}

/** The way back up from a deep page (its parents, outermost first), or nothing for a page in the menu. */
export function breadcrumbsOf(pages: RoutedPage[], path: string): Crumb[] {
  const crumbs: Crumb[] = []
  let page = pages.find((p) => p.path === path)
  const seen = new Set<string>()
  while (page?.meta.parent && !seen.has(page.meta.parent)) {
    seen.add(page.meta.parent)
    const parent = pages.find((p) => p.path === page!.meta.parent)
    if (!parent) break
    crumbs.unshift({ label: parent.meta.title, to: parent.path })
    page = parent
  }
  return crumbs
}
