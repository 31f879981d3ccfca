import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { authUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { authError, authUser } from '../../testing/auth-fixtures'
import { pasteFields } from '../../testing/paste-fields'

const MISSING = 'You must provide either an email or phone number and a password'

async function fill(
  user: ReturnType<typeof userEvent.setup>,
  values: { first?: string; last?: string; email?: string; password?: string },
) {
  await pasteFields(user, [
    ['First name', values.first],
    ['Last name', values.last],
    ['Email', values.email],
    ['Password', values.password],
  ])
}

describe('registration', () => {
  it('shows the role from ?role=publisher and lets the visitor change it', async () => {
    const user = userEvent.setup()
    renderRoute('/register?role=publisher')
    const influencer = await screen.findByRole('radio', { name: /Influencer/ })
    expect(influencer).toBeChecked()
    await user.click(screen.getByRole('radio', { name: /Advertiser/ }))
    expect(screen.getByRole('radio', { name: /Advertiser/ })).toBeChecked()
  })

  it('states that creating an account agrees to the Terms of Service and the Privacy Policy, with links', async () => {
    renderRoute('/register')
    const terms = await screen.findByTestId('register-terms')
    expect(terms).toHaveTextContent('By creating an account you agree to our Terms of Service and Privacy Policy.')
    expect(within(terms).getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms')
    expect(within(terms).getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy')
  })

  it('defaults to advertiser', async () => {
    renderRoute('/register')
    expect(await screen.findByRole('radio', { name: /Advertiser/ })).toBeChecked()
  })

  it('gives the SPEC §5 message when email or password is missing', async () => {
    const user = userEvent.setup()
    renderRoute('/register')
    await screen.findByRole('heading', { name: 'Create your account' })
    await fill(user, { first: 'Ada', last: 'Lovelace' })
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(await screen.findAllByText(MISSING)).toHaveLength(1)
  })

  it('signs up with the role, names and the dashboard redirect, stores the SPEC §3 keys and asks to confirm by email', async () => {
    let body: Record<string, unknown> | null = null
    let redirectTo: string | null = null
    server.use(
      http.post(authUrl('signup'), async ({ request }) => {
        redirectTo = new URL(request.url).searchParams.get('redirect_to')
        body = (await request.json()) as Record<string, unknown>
        return HttpResponse.json(
          authUser({ id: 'new-user', email: 'pat@example.com', userType: 'publisher', confirmed: false }),
        )
      }),
    )
    const user = userEvent.setup()
    renderRoute('/register?role=publisher')
    await screen.findByRole('heading', { name: 'Create your account' })
    await fill(user, { first: 'Pat', last: 'Publisher', email: 'pat@example.com', password: 'correct-horse' })
    await user.click(screen.getByRole('button', { name: 'Create account' }))

    expect(await screen.findByTestId('check-email')).toHaveTextContent('confirm your email address')
    expect(screen.getByTestId('check-email')).toHaveTextContent('pat@example.com')
    expect(body).toMatchObject({
      email: 'pat@example.com',
      password: 'correct-horse',
      data: { user_type: 'publisher', full_name: 'Pat Publisher', first_name: 'Pat', last_name: 'Publisher' },
    })
    expect(redirectTo).toBe(`${window.location.origin}/dashboard`)
    expect(localStorage.getItem('intended_user_type')).toBe('publisher')
    expect(localStorage.getItem('user_full_name')).toBe('Pat Publisher')
    expect(localStorage.getItem('user_first_name')).toBe('Pat')
    expect(localStorage.getItem('user_last_name')).toBe('Publisher')
  })

  it('tells the visitor when the email already has an account (EMAIL_EXISTS)', async () => {
    server.use(http.post(authUrl('signup'), () => authError(422, 'user_already_exists', 'User already registered')))
    const user = userEvent.setup()
    renderRoute('/register')
    await screen.findByRole('heading', { name: 'Create your account' })
    await fill(user, { first: 'Ada', last: 'Lovelace', email: 'ada@example.com', password: 'correct-horse' })
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    const error = await screen.findByTestId('register-error')
    // Said once: the message, then the two ways out as links (it used to repeat "Log in or reset your password.").
    expect(error).toHaveTextContent(/^An account with this email already exists\. Log in or reset your password\.$/)
    expect(screen.getByRole('link', { name: 'reset your password' })).toHaveAttribute('href', '/forgot-password')
  })

  it('answers a taken address as any other: the check-email screen, with the way in for an existing account', async () => {
    // Hosted GoTrue's answer for a confirmed address (a user without identities): nothing on screen may differ.
    server.use(
      http.post(authUrl('signup'), () =>
        HttpResponse.json({ ...authUser({ id: 'fake', email: 'ada@example.com', confirmed: false }), identities: [] }),
      ),
    )
    const user = userEvent.setup()
    renderRoute('/register')
    await screen.findByRole('heading', { name: 'Create your account' })
    await fill(user, { first: 'Ada', last: 'Lovelace', email: 'ada@example.com', password: 'correct-horse' })
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(await screen.findByTestId('check-email')).toHaveTextContent('ada@example.com')
    expect(screen.queryByTestId('register-error')).toBeNull()
    const note = screen.getByTestId('register-existing-account')
    expect(note).toHaveTextContent(
      'Already have an account with this address? Then no email comes: log in or reset your password.',
    )
    expect(within(note).getByRole('link', { name: 'reset your password' })).toHaveAttribute('href', '/forgot-password')
  })

  it('refuses a common or leaked password before sending, saying what to do at the password field', async () => {
    let calls = 0
    server.use(
      http.post(authUrl('signup'), () => {
        calls += 1
        return HttpResponse.json(authUser({ id: 'new', email: 'ada@example.com', confirmed: false }))
      }),
    )
    const user = userEvent.setup()
    renderRoute('/register')
    await screen.findByRole('heading', { name: 'Create your account' })
    await fill(user, { first: 'Ada', last: 'Lovelace', email: 'ada@example.com', password: 'Password1' })
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(
      await screen.findByText('This password appears in lists of leaked passwords. Choose another.'),
    ).toBeInTheDocument()
    expect(calls).toBe(0)
  })

  it("says the server's weak_password answer in the same words as the form's own check", async () => {
    const reasons: string[][] = [['pwned'], ['length']]
    server.use(
      http.post(authUrl('signup'), () =>
        authError(
          422,
          'weak_password',
          'Password is known to be weak and easy to guess, please choose a different one.',
          {
            weak_password: { reasons: reasons.shift() },
          },
        ),
      ),
    )
    const user = userEvent.setup()
    renderRoute('/register')
    await screen.findByRole('heading', { name: 'Create your account' })
    await fill(user, { first: 'Ada', last: 'Lovelace', email: 'ada@example.com', password: 'not-on-our-list-1' })
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(
      await screen.findByText('This password appears in lists of leaked passwords. Choose another.'),
    ).toBeInTheDocument()
    await user.type(screen.getByLabelText('Password'), 'x')
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(await screen.findByText('Use at least 8 characters.')).toBeInTheDocument()
    expect(screen.queryByTestId('register-error')).toBeNull()
  })

  it("reports other failures as 'Failed to sign up: ' + the reason", async () => {
    server.use(
      http.post(authUrl('signup'), () =>
        authError(400, 'email_address_invalid', 'Email address "ada@example.com" is invalid'),
      ),
    )
    const user = userEvent.setup()
    renderRoute('/register')
    await screen.findByRole('heading', { name: 'Create your account' })
    await fill(user, { first: 'Ada', last: 'Lovelace', email: 'ada@example.com', password: 'correct-horse' })
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    await waitFor(() =>
      expect(
        screen.getAllByText('Failed to sign up: Email address "ada@example.com" is invalid').length,
      ).toBeGreaterThanOrEqual(2),
    )
  })
})
