// Coming back from the checkout: the SPEC §2 toast, the query cleared, the deposit shown pending until the
// payments webhook lands and then completed with the new balance (refetched, no reload); a cancelled
// checkout changes nothing; open checkouts are listed until they expire.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { http, HttpResponse } from 'msw'
import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { ADVERTISER, signInAs } from '../../testing/signed-in-fixtures'
import { DEPOSIT_POLL_MS } from '@/features/wallet/api/deposits-query'

const SESSION = 'cs_test_a1b2c3'
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString()
const deposit = (status: string, overrides: Record<string, unknown> = {}) => ({
  id: 'd1',
  amount: 25,
  status,
  stripe_session_id: SESSION,
  expires_at: inAnHour(),
  created_at: new Date().toISOString(),
  ...overrides,
})

const balance = (amount: number) => ({ available: amount, reserved: 0, on_hold: 0, balance: amount })
const noStatement = http.get(restUrl('rpc/wallet_statement'), () => HttpResponse.json([]))

afterEach(() => {
  vi.useRealTimers()
  window.sessionStorage.clear()
})

describe('payment return on the wallet', () => {
  it('shows the deposit pending until the webhook lands, then completed with the refetched balance', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    signInAs('advertiser')
    let credited = false
    const depositQueries: URLSearchParams[] = []
    server.use(
      http.get(restUrl('deposits'), ({ request }) => {
        depositQueries.push(new URL(request.url).searchParams)
        return HttpResponse.json([deposit(credited ? 'completed' : 'pending')])
      }),
      http.get(restUrl('rpc/advertiser_balance'), () => HttpResponse.json(balance(credited ? 35 : 10))),
      noStatement,
    )
    const { router } = renderRoute(`/dashboard/advertiser/wallet?session_id=${SESSION}`)
    expect(await screen.findByText('Payment successful')).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.search).toBe(''))
    expect(router.state.location.pathname).toBe('/dashboard/advertiser/wallet')
    expect(await screen.findByTestId('deposit-pending')).toHaveTextContent(
      'Deposit of 25.00 credits pending: confirming your payment…',
    )
    expect(screen.getByTestId('wallet-total')).toHaveTextContent('10.00 credits')
    const watching = depositQueries.filter((q) => q.get('or') === `(status.eq.pending,stripe_session_id.eq.${SESSION})`)
    expect(watching.length).toBeGreaterThan(0)
    expect(watching[0]!.get('user_id')).toBe(`eq.${ADVERTISER.id}`)

    credited = true
    await act(() => vi.advanceTimersByTimeAsync(DEPOSIT_POLL_MS))
    expect(await screen.findByTestId('deposit-completed')).toHaveTextContent(
      'Deposit completed: 25.00 credits added to your wallet.',
    )
    await waitFor(() => expect(screen.getByTestId('wallet-total')).toHaveTextContent('35.00 credits'))
    // Credited: the polling stops.
    await waitFor(() => expect(screen.getByTestId('wallet-total')).toHaveTextContent('35.00 credits'))
    const asked = depositQueries.length
    await act(() => vi.advanceTimersByTimeAsync(DEPOSIT_POLL_MS * 3))
    expect(depositQueries.length).toBe(asked)
  })

  it('says so when the payment failed', async () => {
    signInAs('advertiser')
    server.use(
      http.get(restUrl('deposits'), () => HttpResponse.json([deposit('failed')])),
      http.get(restUrl('rpc/advertiser_balance'), () => HttpResponse.json(balance(10))),
      noStatement,
    )
    renderRoute(`/dashboard/advertiser/wallet?session_id=${SESSION}`)
    expect(await screen.findByTestId('deposit-failed')).toHaveTextContent(
      'The payment for 25.00 credits failed, so nothing was added.',
    )
  })

  it('shows the cancelled toast, clears the query and follows no deposit', async () => {
    signInAs('advertiser')
    const depositQueries: URLSearchParams[] = []
    server.use(
      http.get(restUrl('deposits'), ({ request }) => {
        depositQueries.push(new URL(request.url).searchParams)
        return HttpResponse.json([])
      }),
      http.get(restUrl('rpc/advertiser_balance'), () => HttpResponse.json(balance(10))),
      noStatement,
    )
    const { router } = renderRoute('/dashboard/advertiser/wallet?payment=canceled')
    expect(await screen.findByText('Payment canceled')).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.search).toBe(''))
    await waitFor(() => expect(depositQueries.length).toBeGreaterThan(0))
    expect(depositQueries[0]!.get('or')).toBe('(status.eq.pending)')
    expect(screen.queryByTestId('deposit-status')).not.toBeInTheDocument()
    expect(await screen.findByTestId('wallet-total')).toHaveTextContent('10.00 credits')
  })

  it('lists checkouts still open as awaiting payment, and not those past their expiry', async () => {
    signInAs('advertiser')
    server.use(
      http.get(restUrl('deposits'), () =>
        HttpResponse.json([
          deposit('pending', { id: 'open', amount: 40, stripe_session_id: 'cs_test_open' }),
          deposit('pending', {
            id: 'old',
            amount: 70,
            stripe_session_id: 'cs_test_old',
            expires_at: '2020-01-01T00:00:00Z',
          }),
        ]),
      ),
      http.get(restUrl('rpc/advertiser_balance'), () => HttpResponse.json(balance(10))),
      noStatement,
    )
    renderRoute('/dashboard/advertiser/wallet')
    const open = await screen.findAllByTestId('deposit-awaiting')
    expect(open).toHaveLength(1)
    expect(open[0]).toHaveTextContent('Deposit of 40.00 credits: awaiting payment. The checkout stays open until')
  })

  it('closes the checkout this tab opened when the advertiser comes back through Cancel', async () => {
    signInAs('advertiser')
    window.sessionStorage.setItem('open_checkout_session', 'cs_test_left')
    const canceled: unknown[] = []
    server.use(
      http.get(restUrl('deposits'), () =>
        HttpResponse.json(
          canceled.length > 0 ? [] : [deposit('pending', { amount: 40, stripe_session_id: 'cs_test_left' })],
        ),
      ),
      http.post(restUrl('rpc/cancel_deposit'), async ({ request }) => {
        canceled.push(await request.json())
        return HttpResponse.json({ id: 'd1', status: 'canceled' })
      }),
      http.get(restUrl('rpc/advertiser_balance'), () => HttpResponse.json(balance(10))),
      noStatement,
    )
    renderRoute('/dashboard/advertiser/wallet?payment=canceled')
    expect(await screen.findByText('Payment canceled')).toBeInTheDocument()
    await waitFor(() => expect(canceled).toEqual([{ p_session_id: 'cs_test_left' }]))
    // No "awaiting payment" banner for the checkout just left, and the key is used once.
    await waitFor(() => expect(screen.queryByTestId('deposit-awaiting')).not.toBeInTheDocument())
    expect(window.sessionStorage.getItem('open_checkout_session')).toBeNull()
  })

  it('cancels an open checkout from its banner', async () => {
    signInAs('advertiser')
    let open = true
    server.use(
      http.get(restUrl('deposits'), () =>
        HttpResponse.json(open ? [deposit('pending', { amount: 40, stripe_session_id: 'cs_test_open' })] : []),
      ),
      http.post(restUrl('rpc/cancel_deposit'), async ({ request }) => {
        expect(await request.json()).toEqual({ p_session_id: 'cs_test_open' })
        open = false
        return HttpResponse.json({ id: 'd1', status: 'canceled' })
      }),
      http.get(restUrl('rpc/advertiser_balance'), () => HttpResponse.json(balance(10))),
      noStatement,
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/advertiser/wallet')
    await user.click(await screen.findByRole('button', { name: 'Cancel the deposit of 40.00 credits' }))
    await waitFor(() => expect(screen.queryByTestId('deposit-awaiting')).not.toBeInTheDocument())
  })
})
