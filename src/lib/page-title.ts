/**
 * Keeps `document.title` right on every route: `useRouteTitle` (in the root layout) sets the route's title from
 * src/config/page-titles.ts in a layout effect; a page that knows better (a newsletter's name) calls
 * `usePageTitle`, whose ordinary effect runs after every layout effect of the same commit and so wins.
 */
import { useEffect, useLayoutEffect } from 'react'
import { documentTitle, pageTitleOf } from '@/config/page-titles'

export function useRouteTitle(pathname: string) {
  useLayoutEffect(() => {
    document.title = documentTitle(pageTitleOf(pathname))
  }, [pathname])
}

export function usePageTitle(title: string | null | undefined) {
  useEffect(() => {
    if (title) document.title = documentTitle(title)
  }, [title])
}
