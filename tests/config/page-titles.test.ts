import { describe, expect, it } from 'vitest'
import type { RouteObject } from 'react-router-dom'
import { routes } from '@/app/router'
import { documentTitle, pageTitleOf } from '@/config/page-titles'

/** Every path of the route table, with parameters filled in, except catch-alls and redirects. */
function pathsOf(list: RouteObject[], base = ''): string[] {
  return list.flatMap((route) => {
    const own = route.index ? base : route.path ? (route.path.startsWith('/') ? route.path : `${base}/${route.path}`) : base
    const filled = own.replace(/\/\*$/, '').replace(/:(\w+)\?/g, 'x').replace(/:(\w+)/g, 'x')
    const here = route.path === '*' || route.element ? [] : route.path || route.index ? [filled || '/'] : []
    return [...here, ...pathsOf(route.children ?? [], filled)]
  })
}

describe('page titles', () => {
  // A layout route and its index are one page.
  const paths = [
    ...new Set(pathsOf(routes)),
    // Areas with their own nested routes.
    '/dashboard/publisher/sources',
    '/dashboard/publisher/stats',
    '/dashboard/publisher/payouts',
    '/dashboard/publisher/disputes',
    '/dashboard/admin/users',
    '/dashboard/admin/money',
    '/dashboard/admin/catalog',
    '/dashboard/admin/disputes',
    '/dashboard/admin/audit-log',
  ]

  it('gives every route a title of its own', () => {
    expect(paths.length).toBeGreaterThan(30)
    const titles = paths.map((path) => pageTitleOf(path))
    expect(paths.filter((path) => pageTitleOf(path) === 'Page not found')).toEqual([])
    expect(new Set(titles).size).toBe(titles.length)
  })

  it('names the page first, then the product; an unknown path is not found', () => {
    expect(documentTitle(pageTitleOf('/dashboard/advertiser/wallet'))).toBe('Wallet · Advertiser · Growletter')
    expect(documentTitle(pageTitleOf('/dashboard/advertiser/wallet/'))).toBe('Wallet · Advertiser · Growletter')
    expect(pageTitleOf('/no/such/page')).toBe('Page not found')
    expect(documentTitle(pageTitleOf('/'))).toMatch(/^Growletter · /)
  })
})
