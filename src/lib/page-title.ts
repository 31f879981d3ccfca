/**
 * Keeps `document.title` right on every route: `useRouteTitle` (in the root layout) sets the title the route
 * table gives the current page (src/app/navigation.ts) in a layout effect; a page that knows better (a
 * newsletter's name) calls `usePageTitle`, whose ordinary effect runs after every layout effect of the same
 * commit and so wins.
 */
import { useEffect, useLayoutEffect } from 'react'
import { brand } from '@/config/brand'

/** The whole tab title: the page, then the brand (the home page already starts with it). */
export const documentTitle = (title: string) => (title.startsWith(brand.name) ? title : `${title} · ${brand.name}`)

export function useRouteTitle(title: string, pathname: string) {
  useLayoutEffect(() => {
    document.title = documentTitle(title)
  }, [title, pathname])
}

export function usePageTitle(title: string | null | undefined) {
  useEffect(() => {
    if (title) document.title = documentTitle(title)
  }, [title])
}
