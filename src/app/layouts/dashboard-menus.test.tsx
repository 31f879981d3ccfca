/**
 * The dashboard layout draws its menus, breadcrumbs and tab title from the route table: the pages that were in
 * no menu (admin disputes, catalog and audit log; advertiser subscribers, manage and disputes) are listed, the
 * current page is marked, and a deep page leads back to the page it is reached from.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, waitFor, within } from '@testing-library/react'
import { restUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { signInAs } from '../../testing/signed-in-fixtures'
import { stubPhoneViewport } from '../../testing/viewport'

// What the pages themselves read is not under test here: every read answers empty.
function emptyData() {
  server.use(
    http.get(restUrl('*'), () => HttpResponse.json([])),
    http.post(restUrl('rpc/*'), () => HttpResponse.json([])),
  )
}

afterEach(() => vi.unstubAllGlobals())

describe('dashboard menus from the route table', () => {
  it('lists every admin page in four sections, marks the current one, and titles the tab', async () => {
    emptyData()
    signInAs('admin')
    renderRoute('/dashboard/admin/disputes')
    const nav = await screen.findByRole('navigation', { name: 'Admin dashboard' })
    const links = within(nav)
      .getAllByRole('link')
      .map((link) => [link.textContent, link.getAttribute('href')])
    expect(links).toEqual([
      ['Review queue', '/dashboard/admin'],
      ['Revisions', '/dashboard/admin/revisions'],
      ['Disputes', '/dashboard/admin/disputes'],
      ['Sources & newsletters', '/dashboard/admin/catalog'],
      ['Money', '/dashboard/admin/money'],
      ['Users', '/dashboard/admin/users'],
      ['Messages', '/dashboard/admin/messages'],
      ['Audit log', '/dashboard/admin/audit-log'],
    ])
    expect(
      within(nav)
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual(['Review', 'Market', 'Money', 'People'])
    expect(within(nav).getByRole('link', { name: 'Disputes' })).toHaveAttribute('aria-current', 'page')
    expect(within(nav).getByRole('link', { name: 'Review queue' })).not.toHaveAttribute('aria-current')
    const account = screen.getByRole('navigation', { name: 'Your account' })
    expect(within(account).getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/dashboard/account')
    await waitFor(() => expect(document.title).toBe('Disputes · Admin · Growletter'))
  })

  it("lists the advertiser's subscribers, manage and disputes pages, and leads a deep page back up", async () => {
    emptyData()
    signInAs('advertiser')
    renderRoute('/dashboard/advertiser/submit-newsletter')
    const nav = await screen.findByRole('navigation', { name: 'Advertiser dashboard' })
    for (const [name, href] of [
      ['Subscribers', '/dashboard/advertiser/subscribers'],
      ['Partners', '/dashboard/advertiser/partners'],
      ['Manage', '/dashboard/advertiser/manage'],
      ['Disputes', '/dashboard/advertiser/disputes'],
      ['Wallet', '/dashboard/advertiser/wallet'],
    ]) {
      expect(within(nav).getByRole('link', { name })).toHaveAttribute('href', href)
    }
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' })
    expect(within(crumbs).getByRole('link', { name: 'Overview' })).toHaveAttribute('href', '/dashboard/advertiser')
    expect(within(crumbs).getByText('Submit a newsletter')).toHaveAttribute('aria-current', 'page')
    await waitFor(() => expect(document.title).toBe('Submit a newsletter · Advertiser · Growletter'))
  })

  it('draws no breadcrumbs on a page of the menu', async () => {
    emptyData()
    signInAs('advertiser')
    renderRoute('/dashboard/advertiser/disputes')
    await screen.findByRole('navigation', { name: 'Advertiser dashboard' })
    expect(screen.queryByRole('navigation', { name: 'Breadcrumb' })).not.toBeInTheDocument()
  })

  it("names a deep page's menu page in the phone switcher, as its breadcrumbs do", async () => {
    stubPhoneViewport()
    emptyData()
    signInAs('admin')
    renderRoute('/dashboard/admin/analytics/source/00000000-0000-4000-8000-000000000001')
    const nav = await screen.findByRole('navigation', { name: 'Admin dashboard' })
    expect(within(nav).getByRole('button')).toHaveTextContent('Admin dashboard: Sources & newsletters')
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' })
    expect(within(crumbs).getByRole('link', { name: 'Sources & newsletters' })).toHaveAttribute(
      'href',
      '/dashboard/admin/catalog',
    )
  })
})
