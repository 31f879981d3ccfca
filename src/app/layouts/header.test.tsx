import { afterEach, describe, expect, it } from 'vitest'
import { toast } from 'sonner'
import { http, HttpResponse } from 'msw'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { authUrl, server } from '../../testing/msw-server'
import { renderRoute, storeTestSession } from '../../testing/render-route'
import { ADVERTISER, authError, emptyDashboards, signedInBackground } from '../../testing/auth-fixtures'

function signIn(metadata: Record<string, unknown> = {}) {
  const session = storeTestSession({ ...ADVERTISER, userType: 'advertiser' })
  session.user.user_metadata = { ...session.user.user_metadata, ...metadata }
  localStorage.setItem(`sb-supabase-auth-token`, JSON.stringify(session))
  signedInBackground(ADVERTISER)
}

// Toasts live in a module-level store that outlives each rendered app.
afterEach(() => toast.dismiss())

describe('header and footer', () => {
  it('shows the five navigation items, Log in and Sign Up, and the footer to visitors', async () => {
    renderRoute('/help')
    const nav = await screen.findByRole('navigation', { name: 'Main' })
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Home', '/'],
      ['Newsletters', '/newsletters'],
      ['Audiences', '/audiences'],
      ['Help', '/help'],
      ['About', '/about'],
    ])
    expect(within(nav).getByRole('link', { name: 'Help' })).toHaveAttribute('aria-current', 'page')
    expect(await screen.findByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login')
    expect(screen.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/register')
    const footer = screen.getByRole('contentinfo')
    for (const [group, links] of [
      ['Company', ['About Us', 'Contact Us', 'Help Center']],
      ['Services', ['For Advertisers', 'For Influencers', 'Browse Newsletters']],
      ['Legal', ['Terms of Service', 'Privacy Policy', 'Cookie Policy', 'GDPR Compliance']],
    ] as const) {
      const groupNav = within(footer).getByRole('navigation', { name: group })
      expect(
        within(groupNav)
          .getAllByRole('link')
          .map((link) => link.textContent),
      ).toEqual(links)
    }
    expect(within(footer).getByRole('link', { name: 'For Influencers' })).toHaveAttribute(
      'href',
      '/register?role=publisher',
    )
    expect(within(footer).getByRole('link', { name: 'Browse Newsletters' })).toHaveAttribute('href', '/campaigns')
    expect(within(footer).getByRole('link', { name: /Featured on Product Hunt/ })).toHaveAttribute(
      'href',
      expect.stringContaining('producthunt.com'),
    )
    expect(footer).toHaveTextContent(
      'The best platform to connect newsletters to influencers for explosive newsletter growth.',
    )
    expect(footer).toHaveTextContent(`© ${new Date().getFullYear()}`)
  })

  it('brand logo leads home', async () => {
    renderRoute('/about')
    const logos = await screen.findAllByRole('link', { name: 'Growletter' })
    expect(logos.map((logo) => logo.getAttribute('href'))).toEqual(['/', '/'])
  })

  it('shows a signed-in user the avatar menu with email, full name and the menu items, and no footer', async () => {
    signIn({ full_name: 'Ada Lovelace' })
    const user = userEvent.setup()
    renderRoute('/help')
    await user.click(await screen.findByRole('button', { name: 'Account menu' }))
    const menu = await screen.findByRole('menu')
    expect(within(menu).getByTestId('user-menu-email')).toHaveTextContent(ADVERTISER.email)
    expect(within(menu).getByTestId('user-menu-name')).toHaveTextContent('Ada Lovelace')
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent?.trim()),
    ).toEqual(['Dashboard', 'Help', 'About', 'Account', 'Log out'])
    expect(screen.queryByRole('contentinfo')).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument()
  })

  it("says 'No name set' when the account has no name", async () => {
    signIn({ full_name: undefined })
    const user = userEvent.setup()
    renderRoute('/help')
    await user.click(await screen.findByRole('button', { name: 'Account menu' }))
    expect(await screen.findByTestId('user-menu-name')).toHaveTextContent('No name set')
  })

  it('hides the main navigation in signed-in areas', async () => {
    signIn()
    emptyDashboards()
    renderRoute('/dashboard/advertiser/wallet')
    await screen.findByRole('button', { name: 'Account menu' })
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument()
  })

  it("logs out with 'Logged out' / 'See you again soon!' and lands on /login", async () => {
    signIn()
    let scope: string | null = null
    server.use(
      http.post(authUrl('logout'), ({ request }) => {
        scope = new URL(request.url).searchParams.get('scope')
        return new HttpResponse(null, { status: 204 })
      }),
    )
    const user = userEvent.setup()
    const { router } = renderRoute('/help')
    await user.click(await screen.findByRole('button', { name: 'Account menu' }))
    await user.click(await screen.findByRole('menuitem', { name: 'Log out' }))
    expect(await screen.findByText('Logged out')).toBeInTheDocument()
    expect(screen.getByText('See you again soon!')).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(scope).toBe('global')
    expect(localStorage.getItem('sb-supabase-auth-token')).toBeNull()
  })

  it('does not send someone who logged out back to the page they left at the next login', async () => {
    signIn()
    emptyDashboards()
    server.use(http.post(authUrl('logout'), () => new HttpResponse(null, { status: 204 })))
    const user = userEvent.setup()
    const { router } = renderRoute('/dashboard/advertiser/wallet')
    await user.click(await screen.findByRole('button', { name: 'Account menu' }))
    await user.click(await screen.findByRole('menuitem', { name: 'Log out' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    await screen.findByText('Logged out')
    expect((router.state.location.state as { from?: string } | null)?.from).toBeUndefined()
  })

  it.each([401, 403, 404])('treats a %i from the server as logged out and clears the local session', async (status) => {
    signIn()
    server.use(http.post(authUrl('logout'), () => authError(status, 'session_not_found', 'Session not found')))
    const user = userEvent.setup()
    const { router } = renderRoute('/help')
    await user.click(await screen.findByRole('button', { name: 'Account menu' }))
    await user.click(await screen.findByRole('menuitem', { name: 'Log out' }))
    expect(await screen.findByText('Logged out')).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(localStorage.getItem('sb-supabase-auth-token')).toBeNull()
  })

  it("says 'Logout failed' when the server fails otherwise", async () => {
    signIn()
    server.use(http.post(authUrl('logout'), () => authError(500, 'unexpected_failure', 'Database error')))
    const user = userEvent.setup()
    const { router } = renderRoute('/help')
    await user.click(await screen.findByRole('button', { name: 'Account menu' }))
    await user.click(await screen.findByRole('menuitem', { name: 'Log out' }))
    expect(await screen.findByText('Logout failed')).toBeInTheDocument()
    expect(screen.getByText('Something went wrong. Please try again.')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/help')
  })
})
