/**
 * The navigation generated from the route table, read from the root route's handle (router.tsx puts it
 * there), so the layouts never import the table itself.
 */
import { useLocation, useMatches } from 'react-router-dom'
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
  return { crumbs: breadcrumbsOf(pages, path), current: pages.find((p) => p.path === path)?.meta.title }
}
