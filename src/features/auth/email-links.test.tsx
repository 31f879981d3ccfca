import { afterEach, describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { toast } from 'sonner'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { authUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import {
  PUBLISHER,
  ADVERTISER,
  accessToken,
  authError,
  authUser,
  emptyDashboards,
  signedInBackground,
  storeSession,
} from '../../testing/auth-fixtures'

// Addresses and passwords are pasted (click, then paste), not typed key by key: these tests are about what the forms
// do with the values.

afterEach(() => {
  toast.dismiss()
  window.history.replaceState(null, '', '/')
})

/** The address an auth email link lands on; the SPA reads the hash from window.location. */
function landOn(path: string, hash: string) {
  window.history.replaceState(null, '', `${path}${hash}`)
  return renderRoute(path)
}

const sessionHash = (userId: string, type: string) =>
  `#access_token=${accessToken(userId)}&expires_in=3600&refresh_token=r-${userId}&token_type=bearer&type=${type}`

describe('confirmation link landing on /dashboard', () => {
  it('starts the session from the hash, clears it, and opens the dashboard of the new user type', async () => {
    server.use(http.get(authUrl('user'), () => HttpResponse.json(authUser(PUBLISHER))))
    signedInBackground(PUBLISHER)
    emptyDashboards()
    const { router } = landOn('/dashboard', sessionHash(PUBLISHER.id, 'signup'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/publisher'))
    expect(window.location.hash).toBe('')
    expect(JSON.parse(localStorage.getItem('sb-supabase-auth-token') ?? '{}').user.id).toBe(PUBLISHER.id)
  })

  it('explains an expired or used link', async () => {
    landOn(
      '/dashboard',
      '#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
    )
    expect(await screen.findByTestId('confirm-link-error')).toHaveTextContent('Email link is invalid or has expired')
    // The page clears the hash in an effect, which may run just after the message is painted.
    await waitFor(() => expect(window.location.hash).toBe(''))
  })
})

describe('password reset', () => {
  it('sends the reset email with the /reset-password redirect', async () => {
    let redirectTo: string | null = null
    let body: unknown = null
    server.use(
      http.post(authUrl('recover'), async ({ request }) => {
        redirectTo = new URL(request.url).searchParams.get('redirect_to')
        body = await request.json()
        return HttpResponse.json({})
      }),
    )
    const user = userEvent.setup()
    renderRoute('/forgot-password')
    await user.click(await screen.findByLabelText('Email'))
    await user.paste('ada@example.com')
    await user.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByTestId('check-email')).toHaveTextContent('ada@example.com')
    expect(redirectTo).toBe(`${window.location.origin}/reset-password`)
    expect(body).toMatchObject({ email: 'ada@example.com' })
  })

  it('validates the email before sending', async () => {
    const user = userEvent.setup()
    renderRoute('/forgot-password')
    await user.click(await screen.findByLabelText('Email'))
    await user.paste('not-an-email')
    await user.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByText('Enter a valid email address, like name@example.com.')).toBeInTheDocument()
  })

  it('lands with a recovery session and sets the new password', async () => {
    let newPassword: unknown = null
    server.use(
      http.get(authUrl('user'), () => HttpResponse.json(authUser(ADVERTISER))),
      http.put(authUrl('user'), async ({ request }) => {
        newPassword = ((await request.json()) as { password: string }).password
        return HttpResponse.json(authUser(ADVERTISER))
      }),
    )
    signedInBackground(ADVERTISER)
    emptyDashboards()
    const user = userEvent.setup()
    const { router } = landOn('/reset-password', sessionHash(ADVERTISER.id, 'recovery'))
    await user.click(await screen.findByLabelText('New password'))
    await user.paste('brand-new-secret')
    await user.click(screen.getByLabelText('Repeat the new password'))
    await user.paste('brand-new-secret')
    await user.click(screen.getByRole('button', { name: 'Save new password' }))
    expect(await screen.findByText('Password updated')).toBeInTheDocument()
    expect(newPassword).toBe('brand-new-secret')
    // The dashboard is a lazily loaded page: give it time to arrive.
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/advertiser'))
  })

  it('refuses two different passwords and a short one', async () => {
    server.use(http.get(authUrl('user'), () => HttpResponse.json(authUser(ADVERTISER))))
    signedInBackground(ADVERTISER)
    const user = userEvent.setup()
    landOn('/reset-password', sessionHash(ADVERTISER.id, 'recovery'))
    await user.click(await screen.findByLabelText('New password'))
    await user.paste('short')
    await user.click(screen.getByLabelText('Repeat the new password'))
    await user.paste('different')
    await user.click(screen.getByRole('button', { name: 'Save new password' }))
    expect(await screen.findByText('Use at least 8 characters.')).toBeInTheDocument()
    expect(screen.getByText('The passwords do not match.')).toBeInTheDocument()
  })

  it('explains an expired reset link and offers a new one', async () => {
    landOn(
      '/reset-password',
      '#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
    )
    expect(await screen.findByTestId('reset-link-error')).toHaveTextContent('Email link is invalid or has expired')
    expect(screen.getByRole('link', { name: 'Send a new reset link' })).toHaveAttribute('href', '/forgot-password')
  })

  it('shows the auth server refusal of a new password', async () => {
    server.use(
      http.get(authUrl('user'), () => HttpResponse.json(authUser(ADVERTISER))),
      http.put(authUrl('user'), () =>
        authError(422, 'same_password', 'New password should be different from the old password.'),
      ),
    )
    signedInBackground(ADVERTISER)
    const user = userEvent.setup()
    landOn('/reset-password', sessionHash(ADVERTISER.id, 'recovery'))
    await user.click(await screen.findByLabelText('New password'))
    await user.paste('old-password-1')
    await user.click(screen.getByLabelText('Repeat the new password'))
    await user.paste('old-password-1')
    await user.click(screen.getByRole('button', { name: 'Save new password' }))
    expect(await screen.findByText('New password should be different from the old password.')).toBeInTheDocument()
  })
  it('refuses a leaked password before sending, and says a server weak_password answer in the same words', async () => {
    const sent: string[] = []
    server.use(
      http.get(authUrl('user'), () => HttpResponse.json(authUser(ADVERTISER))),
      http.put(authUrl('user'), async ({ request }) => {
        sent.push(((await request.json()) as { password: string }).password)
        return authError(
          422,
          'weak_password',
          'Password is known to be weak and easy to guess, please choose a different one.',
          {
            weak_password: { reasons: ['pwned'] },
          },
        )
      }),
    )
    signedInBackground(ADVERTISER)
    const user = userEvent.setup()
    landOn('/reset-password', sessionHash(ADVERTISER.id, 'recovery'))
    const leaked = 'This password appears in lists of leaked passwords. Choose another.'
    await user.click(await screen.findByLabelText('New password'))
    await user.paste('sunshine1')
    await user.click(screen.getByLabelText('Repeat the new password'))
    await user.paste('sunshine1')
    await user.click(screen.getByRole('button', { name: 'Save new password' }))
    expect(await screen.findByText(leaked)).toBeInTheDocument()
    expect(sent).toEqual([])
    await user.clear(screen.getByLabelText('New password'))
    await user.click(screen.getByLabelText('New password'))
    await user.paste('hosted-list-only')
    await user.clear(screen.getByLabelText('Repeat the new password'))
    await user.click(screen.getByLabelText('Repeat the new password'))
    await user.paste('hosted-list-only')
    await user.click(screen.getByRole('button', { name: 'Save new password' }))
    await waitFor(() => expect(sent).toEqual(['hosted-list-only']))
    expect(await screen.findByText(leaked)).toBeInTheDocument()
  })
})

describe('/update-password', () => {
  it('sends a visitor to log in first', async () => {
    const { router } = renderRoute('/update-password')
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
  })

  it('lets a signed-in user change their password', async () => {
    storeSession(ADVERTISER)
    signedInBackground(ADVERTISER)
    emptyDashboards()
    let newPassword: unknown = null
    server.use(
      http.put(authUrl('user'), async ({ request }) => {
        newPassword = ((await request.json()) as { password: string }).password
        return HttpResponse.json(authUser(ADVERTISER))
      }),
    )
    const user = userEvent.setup()
    renderRoute('/update-password')
    await user.click(await screen.findByLabelText('New password'))
    await user.paste('another-secret')
    await user.click(screen.getByLabelText('Repeat the new password'))
    await user.paste('another-secret')
    await user.click(screen.getByRole('button', { name: 'Save new password' }))
    expect(await screen.findByText('Password updated')).toBeInTheDocument()
    expect(newPassword).toBe('another-secret')
  })
})
