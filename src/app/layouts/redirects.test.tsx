import { afterEach, describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { toast } from 'sonner'
import { screen, waitFor } from '@testing-library/react'
import { restUrl, server } from '../../testing/msw-server'
import { renderRoute, storeTestSession } from '../../testing/render-route'
import { ADVERTISER, PUBLISHER, emptyDashboards, signedInBackground } from '../../testing/auth-fixtures'

afterEach(() => toast.dismiss())

const at = (router: ReturnType<typeof renderRoute>['router']) =>
  router.state.location.pathname + router.state.location.search

describe('redirects (SPEC §2)', () => {
  it('sends /dashboard without a user to /login', async () => {
    const { router } = renderRoute('/dashboard')
    await waitFor(() => expect(at(router)).toBe('/login'))
  })

  it.each([
    ['advertiser', '/dashboard/advertiser'],
    ['publisher', '/dashboard/publisher'],
    ['admin', '/dashboard/admin'],
  ] as const)('sends a signed-in %s from /dashboard to %s', async (userType, target) => {
    storeTestSession({ ...ADVERTISER, userType: 'advertiser' })
    signedInBackground({ ...ADVERTISER, userType })
    emptyDashboards()
    const { router } = renderRoute('/dashboard')
    await waitFor(() => expect(router.state.location.pathname).toBe(target))
  })

  it('sends a signed-in user from home to their dashboard, profile first', async () => {
    // The metadata says advertiser; the profile says publisher and wins.
    storeTestSession({ ...PUBLISHER, userType: 'advertiser' })
    signedInBackground(PUBLISHER)
    emptyDashboards()
    const { router } = renderRoute('/')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/publisher'))
  })

  it('uses the metadata when there is no profile', async () => {
    storeTestSession({ ...PUBLISHER, userType: 'publisher' })
    signedInBackground(PUBLISHER)
    server.use(http.get(restUrl('profiles'), () => HttpResponse.json([])))
    emptyDashboards()
    const { router } = renderRoute('/')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/publisher'))
  })

  it('sends the user to the advertiser dashboard when the type lookup fails', async () => {
    storeTestSession({ ...PUBLISHER, userType: 'publisher' })
    signedInBackground(PUBLISHER)
    server.use(
      http.get(restUrl('profiles'), () => HttpResponse.json({ message: 'down', code: 'XX000' }, { status: 500 })),
    )
    emptyDashboards()
    const { router } = renderRoute('/')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/advertiser'))
  })

  it.each([
    ['/dashboard/advertiser/newsletters', '/dashboard/advertiser'],
    ['/dashboard/advertiser/newsletter/abc-123', '/dashboard/advertiser/analytics?newsletterId=abc-123'],
    ['/dashboard/advertiser/campaigns/create', '/dashboard/advertiser/submit-newsletter'],
    ['/dashboard/advertiser/campaigns/c-9', '/dashboard/advertiser/analytics'],
    ['/admin/users/42', '/dashboard/admin'],
  ])('redirects %s to %s', async (from, to) => {
    storeTestSession({ ...ADVERTISER, userType: 'advertiser' })
    signedInBackground({ ...ADVERTISER, userType: to.startsWith('/dashboard/admin') ? 'admin' : 'advertiser' })
    emptyDashboards()
    const { router } = renderRoute(from)
    await waitFor(() => expect(at(router)).toBe(to))
  })

  it('shows a not-found page for anything else', async () => {
    renderRoute('/no/such/page')
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/')
  })
})

describe('payment return (SPEC §2 Global screens)', () => {
  it('shows the success toast for ?session_id= and clears the query', async () => {
    const { router } = renderRoute('/about?session_id=cs_test_123')
    expect(await screen.findByText('Payment successful')).toBeInTheDocument()
    await waitFor(() => expect(at(router)).toBe('/about'))
  })

  it('shows the cancelled toast for ?payment=canceled and clears the query', async () => {
    const { router } = renderRoute('/about?payment=canceled&foo=bar')
    expect(await screen.findByText('Payment canceled')).toBeInTheDocument()
    await waitFor(() => expect(at(router)).toBe('/about'))
  })

  it('leaves other queries alone', async () => {
    const { router } = renderRoute('/register?role=publisher')
    await screen.findByRole('heading', { name: 'Create your account' })
    expect(at(router)).toBe('/register?role=publisher')
    expect(screen.queryByText('Payment successful')).not.toBeInTheDocument()
  })
})
