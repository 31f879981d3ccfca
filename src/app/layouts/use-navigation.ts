/**
 * The navigation generated from the route table, read from the root route's handle (router.tsx puts it
 * there), so the layouts never import the table itself.
 */
import { matchPath, useLocation, useMatches } from 'react-router-dom'
import { breadcrumbsOf, type Crumb, type RootHandle } from '../navigation'

export function useRootHandle(): RootHandle {
  const matches = useMatches()
  return matches[0]!.handle as RootHandle
}

export const useNavigation = () => useRootHandle().navigation

/** Breadcrumbs of the current dashboard page when it is reached from another page (the table's `parent`). */
export function useBreadcrumbs(): { crumbs: Crumb[]; current?: string } {
  const { pages } = useRootHandle()
  const { pathname } = useLocation()
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  // A page of its own path, or a page with parameters (a user's page) matched by its pattern.
  const page =
    pages.find((p) => p.path === path) ??
    pages.find((p) => p.path.includes(':') && !p.path.includes('*') && matchPath({ path: p.path, end: true }, path))
  return { crumbs: page ? breadcrumbsOf(pages, page.path) : [], current: page?.meta.title }
}
