import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { authUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import {
  ADVERTISER,
  PUBLISHER,
  authError,
  authSession,
  authUser,
  emptyDashboards,
  signedInBackground,
} from '../../testing/auth-fixtures'

async function logIn(email: string, password: string) {
  const user = userEvent.setup()
  await screen.findByRole('heading', { name: 'Log in' })
  // Pasted (click, then paste), not typed key by key: these tests are about what happens with the credentials.
  await user.click(screen.getByLabelText('Email'))
  await user.paste(email)
  await user.click(screen.getByLabelText('Password'))
  await user.paste(password)
  await user.click(screen.getByRole('button', { name: 'Log in' }))
  return user
}

describe('login', () => {
  it('signs in and lands on the dashboard of the user type', async () => {
    let grant: string | null = null
    server.use(
      http.post(authUrl('token'), ({ request }) => {
        grant = new URL(request.url).searchParams.get('grant_type')
        return HttpResponse.json(authSession(PUBLISHER))
      }),
    )
    signedInBackground(PUBLISHER)
    emptyDashboards()
    const { router } = renderRoute('/login')
    await logIn(PUBLISHER.email, 'correct-horse')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/publisher'))
    expect(grant).toBe('password')
  })

  it('goes back to the page that asked for a sign-in', async () => {
    server.use(http.post(authUrl('token'), () => HttpResponse.json(authSession(ADVERTISER))))
    signedInBackground(ADVERTISER)
    emptyDashboards()
    const { router } = renderRoute('/update-password')
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    await logIn(ADVERTISER.email, 'correct-horse')
    await waitFor(() => expect(router.state.location.pathname).toBe('/update-password'))
  })

  it('gives the SPEC §5 message when email or password is missing', async () => {
    const user = userEvent.setup()
    renderRoute('/login')
    await screen.findByRole('heading', { name: 'Log in' })
    await user.click(screen.getByRole('button', { name: 'Log in' }))
    // Said once, for the form; each field says what it lacks.
    expect(await screen.findAllByText('You must provide either an email or phone number and a password')).toHaveLength(
      1,
    )
    expect(screen.getByText('Enter your email address.')).toBeInTheDocument()
    expect(screen.getByText('Enter your password.')).toBeInTheDocument()
  })

  it('shows the auth server message for wrong credentials', async () => {
    server.use(http.post(authUrl('token'), () => authError(400, 'invalid_credentials', 'Invalid login credentials')))
    renderRoute('/login')
    await logIn('ada@example.com', 'wrong-password')
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Invalid login credentials')
  })

  it('tells a suspended account why it cannot sign in and how to appeal, never the raw "User is banned" (issue 37)', async () => {
    server.use(http.post(authUrl('token'), () => authError(400, 'user_banned', 'User is banned')))
    const { router } = renderRoute('/login')
    const user = await logIn('ada@example.com', 'correct-horse')
    const message = await screen.findByTestId('login-suspended')
    expect(message).toHaveTextContent(
      'This account is suspended, so it cannot sign in. We emailed you the reason when it was suspended.',
    )
    expect(message).not.toHaveTextContent('User is banned')
    expect(screen.queryByTestId('login-error')).not.toBeInTheDocument()
    await user.click(within(message).getByRole('link', { name: 'Appeal through the contact form' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/contact'))
    // The contact form arrives prefilled to appeal.
    expect(await screen.findByLabelText('Subject')).toHaveValue('Appeal my account suspension')
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com')
  })

  it('shows the per-account limit of password guesses readably (issue 21)', async () => {
    const message =
      'Too many failed sign-in attempts for this account from new locations. Try again in 15 minutes, sign in from a device you used before, or reset your password.'
    server.use(http.post(authUrl('token'), () => authError(429, 'over_request_rate_limit', message)))
    renderRoute('/login')
    await logIn('ada@example.com', 'correct-horse')
    expect(await screen.findByTestId('login-error')).toHaveTextContent(message)
  })

  it('explains an unconfirmed email and resends the confirmation', async () => {
    let resent: unknown = null
    server.use(
      http.post(authUrl('token'), () => authError(400, 'email_not_confirmed', 'Email not confirmed')),
      http.post(authUrl('resend'), async ({ request }) => {
        resent = await request.json()
        return HttpResponse.json({})
      }),
    )
    renderRoute('/login')
    const user = await logIn('new@example.com', 'correct-horse')
    expect(await screen.findByTestId('login-unconfirmed')).toHaveTextContent('Your email address is not confirmed yet.')
    await user.click(screen.getByRole('button', { name: 'Resend confirmation email' }))
    expect(await screen.findByText('Verification email sent')).toBeInTheDocument()
    expect(resent).toMatchObject({ type: 'signup', email: 'new@example.com' })
  })

  it('asks for the TOTP code when the account has a verified factor, then lets the user in', async () => {
    const withFactor = { ...ADVERTISER, factors: [{ id: 'factor-1', status: 'verified' as const }] }
    let verified: unknown = null
    server.use(
      http.post(authUrl('token'), () => HttpResponse.json(authSession(withFactor, 'aal1'))),
      http.get(authUrl('user'), () => HttpResponse.json(authUser(withFactor))),
      http.post(authUrl('factors/factor-1/challenge'), () =>
        HttpResponse.json({ id: 'challenge-1', type: 'totp', expires_at: 9999999999 }),
      ),
      http.post(authUrl('factors/factor-1/verify'), async ({ request }) => {
        verified = await request.json()
        return HttpResponse.json(authSession(withFactor, 'aal2'))
      }),
    )
    signedInBackground(ADVERTISER)
    emptyDashboards()
    const { router } = renderRoute('/login')
    const user = await logIn(ADVERTISER.email, 'correct-horse')
    const code = await screen.findByLabelText('6-digit code')
    // Signed in with the password only: the dashboards stay closed until the code is given.
    expect(router.state.location.pathname).toBe('/login')
    await user.type(code, '123456')
    await user.click(screen.getByRole('button', { name: 'Verify' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/advertiser'))
    expect(verified).toMatchObject({ challenge_id: 'challenge-1', code: '123456' })
  })

  it('rejects a malformed TOTP code before asking the server', async () => {
    const withFactor = { ...ADVERTISER, factors: [{ id: 'factor-1', status: 'verified' as const }] }
    server.use(
      http.post(authUrl('token'), () => HttpResponse.json(authSession(withFactor, 'aal1'))),
      http.get(authUrl('user'), () => HttpResponse.json(authUser(withFactor))),
    )
    signedInBackground(ADVERTISER)
    renderRoute('/login')
    const user = await logIn(ADVERTISER.email, 'correct-horse')
    await user.type(await screen.findByLabelText('6-digit code'), '12ab')
    await user.click(screen.getByRole('button', { name: 'Verify' }))
    expect(await screen.findByText('Enter the 6-digit code from your authenticator app.')).toBeInTheDocument()
  })
})
