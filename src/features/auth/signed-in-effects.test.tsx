import { afterEach, describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { toast } from 'sonner'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { authUrl, functionsUrl, restUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { authError, storeSession, type FixtureUser } from '../../testing/auth-fixtures'

afterEach(() => toast.dismiss())

let nextId = 0
/** A fresh user per test: the verification reminder is one-time per user in a page load. */
const freshUser = (overrides: Partial<FixtureUser> = {}): FixtureUser => {
  nextId += 1
  return {
    id: `33333333-3333-4333-8333-${String(nextId).padStart(12, '0')}`,
    email: `user${nextId}@example.com`,
    ...overrides,
  }
}

function profileAndWallet(user: FixtureUser) {
  server.use(
    http.get(restUrl('profiles'), () => HttpResponse.json([{ user_type: user.userType ?? 'advertiser' }])),
    http.post(restUrl('rpc/ensure_wallet_exists'), () => HttpResponse.json({ id: 'w', user_id: user.id, balance: 0 })),
    http.post(restUrl('rpc/claim_signup_bonus'), () => HttpResponse.json({ paid: false, balance: 10 })),
  )
}

describe('email verification reminder (SPEC §4, §8)', () => {
  it('reminds a signed-in unverified user once, with a resend action', async () => {
    const user = freshUser({ confirmed: false })
    storeSession(user)
    profileAndWallet(user)
    let resent: unknown = null
    server.use(
      http.post(authUrl('resend'), async ({ request }) => {
        resent = await request.json()
        return HttpResponse.json({})
      }),
    )
    const events = userEvent.setup()
    renderRoute('/help')
    expect(await screen.findByText('Please verify your email')).toBeInTheDocument()
    await events.click(screen.getByRole('button', { name: 'Resend' }))
    expect(await screen.findByText('Verification email sent')).toBeInTheDocument()
    expect(resent).toMatchObject({ type: 'signup', email: user.email })
  })

  it('says nothing to a verified user', async () => {
    const user = freshUser()
    storeSession(user)
    profileAndWallet(user)
    renderRoute('/help')
    await screen.findByRole('heading', { name: 'Help Center' })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(screen.queryByText('Please verify your email')).not.toBeInTheDocument()
  })

  it('falls back to a password-reset email, then the backup function', async () => {
    const user = freshUser({ confirmed: false })
    storeSession(user)
    profileAndWallet(user)
    const calls: string[] = []
    server.use(
      http.post(authUrl('resend'), () => {
        calls.push('resend')
        return authError(429, 'over_email_send_rate_limit', 'Email rate limit exceeded')
      }),
      http.post(authUrl('recover'), () => {
        calls.push('recover')
        return authError(429, 'over_email_send_rate_limit', 'Email rate limit exceeded')
      }),
      http.post(functionsUrl('send-backup-confirmation'), async ({ request }) => {
        calls.push(`backup:${((await request.json()) as { email: string }).email}`)
        return HttpResponse.json({ success: true })
      }),
    )
    const events = userEvent.setup()
    renderRoute('/help')
    await events.click(await screen.findByRole('button', { name: 'Resend' }))
    expect(await screen.findByText('Verification email sent')).toBeInTheDocument()
    expect(calls).toEqual(['resend', 'recover', `backup:${user.email}`])
  })

  it("says 'Failed to send verification email' with the reason when every way fails", async () => {
    const user = freshUser({ confirmed: false })
    storeSession(user)
    profileAndWallet(user)
    let backupCalls = 0
    server.use(
      http.post(authUrl('resend'), () => authError(429, 'over_email_send_rate_limit', 'Email rate limit exceeded')),
      http.post(authUrl('recover'), () => authError(429, 'over_email_send_rate_limit', 'Email rate limit exceeded')),
      http.post(functionsUrl('send-backup-confirmation'), () => {
        backupCalls += 1
        return HttpResponse.json({ error: 'SMTP down' }, { status: 500 })
      }),
    )
    const events = userEvent.setup()
    renderRoute('/help')
    await events.click(await screen.findByRole('button', { name: 'Resend' }))
    expect(await screen.findByText('Failed to send verification email')).toBeInTheDocument()
    // The backup function is retried once before giving up.
    expect(backupCalls).toBe(2)
  })
})

describe('wallet initialisation on sign-in (SPEC §6, §8)', () => {
  it('opens the wallet and claims the bonus for an advertiser', async () => {
    const user = freshUser({ userType: 'advertiser' })
    storeSession(user)
    const calls: string[] = []
    server.use(
      http.get(restUrl('profiles'), () => HttpResponse.json([{ user_type: 'advertiser' }])),
      http.post(restUrl('rpc/ensure_wallet_exists'), async ({ request }) => {
        calls.push(`ensure:${((await request.json()) as { p_user_id: string }).p_user_id}`)
        return HttpResponse.json({ id: 'w', user_id: user.id, balance: 0 })
      }),
      http.post(restUrl('rpc/claim_signup_bonus'), () => {
        calls.push('bonus')
        return HttpResponse.json({ paid: true, balance: 10 })
      }),
    )
    renderRoute('/help')
    await waitFor(() => expect(calls).toEqual([`ensure:${user.id}`, 'bonus']))
  })

  it('only opens the wallet for a publisher', async () => {
    const user = freshUser({ userType: 'publisher' })
    storeSession(user)
    const calls: string[] = []
    server.use(
      http.get(restUrl('profiles'), () => HttpResponse.json([{ user_type: 'publisher' }])),
      http.post(restUrl('rpc/ensure_wallet_exists'), () => {
        calls.push('ensure')
        return HttpResponse.json({ id: 'w', user_id: user.id, balance: 0 })
      }),
      http.post(restUrl('rpc/claim_signup_bonus'), () => {
        calls.push('bonus')
        return HttpResponse.json({ paid: false, balance: 0 })
      }),
    )
    renderRoute('/help')
    await waitFor(() => expect(calls).toEqual(['ensure']))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(calls).toEqual(['ensure'])
  })

  it('retries once after 2000 ms and says nothing when the retry works', async () => {
    const user = freshUser({ userType: 'advertiser' })
    storeSession(user)
    const times: number[] = []
    server.use(
      http.get(restUrl('profiles'), () => HttpResponse.json([{ user_type: 'advertiser' }])),
      http.post(restUrl('rpc/ensure_wallet_exists'), () => {
        times.push(Date.now())
        return times.length === 1
          ? HttpResponse.json(
              { code: '40001', message: 'could not serialize access', details: null, hint: null },
              { status: 500 },
            )
          : HttpResponse.json({ id: 'w', user_id: user.id, balance: 0 })
      }),
      http.post(restUrl('rpc/claim_signup_bonus'), () => HttpResponse.json({ paid: false, balance: 10 })),
    )
    renderRoute('/help')
    await waitFor(() => expect(times).toHaveLength(2))
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(1950)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(screen.queryByText('Wallet Initialization Failed')).not.toBeInTheDocument()
  })

  it('shows the SPEC §8 toast when the retry fails too', async () => {
    const user = freshUser({ userType: 'advertiser' })
    storeSession(user)
    let attempts = 0
    server.use(
      http.get(restUrl('profiles'), () => HttpResponse.json([{ user_type: 'advertiser' }])),
      http.post(restUrl('rpc/ensure_wallet_exists'), () => {
        attempts += 1
        return HttpResponse.json(
          { code: 'XX000', message: 'database is down', details: null, hint: null },
          { status: 500 },
        )
      }),
    )
    renderRoute('/help')
    expect(await screen.findByText('Wallet Initialization Failed')).toBeInTheDocument()
    expect(
      screen.getByText('There was an issue setting up your wallet. Your funds may not be available immediately.'),
    ).toBeInTheDocument()
    expect(attempts).toBe(2)
  })
})
