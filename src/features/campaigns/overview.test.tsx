import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, within, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { postgrestError, signInAs } from '../../testing/signed-in-fixtures'

const campaign = (overrides: Record<string, unknown>) => ({
  id: 'c1',
  name: 'Morning Brew',
  category: 'business',
  image_url: null,
  status: 'active',
  review_note: null,
  price_per_subscriber: 2,
  budget_total: 100,
  budget_spent: 10,
  created_at: '2026-11-01T10:00:00Z',
  ...overrides,
})

function walletHandler(available = 40, held = 5, reserved = 0) {
  return http.get(restUrl('rpc/advertiser_balance'), () =>
    HttpResponse.json({ available, reserved, on_hold: held, balance: available + reserved + held }),
  )
}

/** campaign_week_figures: [confirmed subscribers, paid subscribers] of the last 7 days per campaign. */
function subscriberCounts(counts: Record<string, [number, number]>) {
  return http.get(restUrl('rpc/campaign_week_figures'), () =>
    HttpResponse.json(
      Object.entries(counts).map(([id, [confirmed, paid]]) => ({
        campaign_id: id,
        confirmed_subscribers: confirmed,
        paid_subscribers: paid,
      })),
    ),
  )
}

describe('advertiser overview', () => {
  it('shows skeletons while the wallet and campaigns load', async () => {
    signInAs('advertiser')
    server.use(
      http.get(restUrl('rpc/advertiser_balance'), () => new Promise(() => {})),
      http.get(restUrl('campaigns'), () => new Promise(() => {})),
    )
    renderRoute('/dashboard/advertiser')
    expect(await screen.findByRole('status', { name: 'Loading wallet' })).toBeInTheDocument()
    expect(screen.getByRole('status', { name: 'Loading campaigns' })).toBeInTheDocument()
  })

  it('invites an advertiser without campaigns to list a newsletter', async () => {
    signInAs('advertiser')
    server.use(
      walletHandler(10, 0),
      http.get(restUrl('campaigns'), () => HttpResponse.json([])),
    )
    renderRoute('/dashboard/advertiser')
    expect(await screen.findByText('You have not listed a newsletter yet.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'List your first newsletter' })).toHaveAttribute(
      'href',
      '/dashboard/advertiser/submit-newsletter',
    )
    expect(await screen.findByTestId('wallet-available')).toHaveTextContent('10.00 credits')
  })

  it('says so when the campaigns cannot be loaded', async () => {
    signInAs('advertiser')
    server.use(
      walletHandler(),
      http.get(restUrl('campaigns'), () => postgrestError(500, 'database is down')),
    )
    renderRoute('/dashboard/advertiser')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Could not load your campaigns')
    expect(alert).toHaveTextContent('database is down')
  })

  it('lists campaigns with status, confirmed and paid subscribers of the week, spend, the review note and funding problems', async () => {
    signInAs('advertiser')
    server.use(
      walletHandler(1.5, 5),
      http.get(restUrl('campaigns'), () =>
        HttpResponse.json([
          campaign({ id: 'c1', name: 'Morning Brew', budget_spent: 10 }),
          campaign({ id: 'c2', name: 'Tiny Budget', budget_total: 20, budget_spent: 19, price_per_subscriber: 1 }),
          campaign({ id: 'c3', name: 'Refused', status: 'rejected', review_note: 'Website is unreachable' }),
          campaign({ id: 'c4', name: 'Waiting', status: 'pending_review' }),
        ]),
      ),
      subscriberCounts({ c1: [7, 5], c2: [1, 1], c3: [0, 0], c4: [0, 0] }),
    )
    renderRoute('/dashboard/advertiser')
    const items = await screen.findAllByTestId('campaign-item')
    expect(items).toHaveLength(4)
    const [brew, tiny, refused, waiting] = items
    expect(within(brew).getByTestId('campaign-status')).toHaveTextContent('Active')
    // Everyone who confirmed and those charged, each under its own label (one word, one number).
    await waitFor(() => expect(within(brew).getByTestId('campaign-week-subscribers')).toHaveTextContent('7'))
    expect(within(brew).getByTestId('campaign-week-paid')).toHaveTextContent('5')
    expect(within(brew).getByText('Confirmed subscribers (7 days)')).toBeInTheDocument()
    expect(within(brew).getByText('Paid subscribers (7 days)')).toBeInTheDocument()
    expect(within(brew).getByText('10.00 credits')).toBeInTheDocument()
    // 1.50 available cannot pay the 2.00 price: the advertiser is told why.
    expect(within(brew).getByRole('note')).toHaveTextContent(
      'your available balance (1.50 credits) is below the price per subscriber (2.00 credits)',
    )
    // …and can fund the wallet right there.
    await userEvent.setup().click(within(brew).getByRole('button', { name: 'add funds now' }))
    expect(await screen.findByRole('dialog', { name: 'Add funds' })).toBeInTheDocument()
    // 1.00 of budget left pays exactly one more at 1.00; the balance (1.50) also covers it.
    expect(within(tiny).queryByRole('note')).not.toBeInTheDocument()
    expect(within(refused).getByText('Website is unreachable')).toBeInTheDocument()
    expect(within(refused).queryByRole('button', { name: /pause|resume/i })).not.toBeInTheDocument()
    expect(within(waiting).getByTestId('campaign-status')).toHaveTextContent('Pending review')
  })

  it('explains when the remaining budget cannot pay one more subscriber', async () => {
    signInAs('advertiser')
    server.use(
      walletHandler(500, 0),
      http.get(restUrl('campaigns'), () =>
        HttpResponse.json([campaign({ budget_total: 50, budget_spent: 49, price_per_subscriber: 2 })]),
      ),
      subscriberCounts({}),
    )
    renderRoute('/dashboard/advertiser')
    expect(await screen.findByRole('note')).toHaveTextContent(
      'the remaining budget (1.00 credits) is below the price per subscriber (2.00 credits)',
    )
  })

  it('pauses an active campaign and resumes a paused one through set_campaign_paused', async () => {
    signInAs('advertiser')
    let status = 'active'
    const calls: unknown[] = []
    server.use(
      walletHandler(),
      http.get(restUrl('campaigns'), () => HttpResponse.json([campaign({ status })])),
      subscriberCounts({ c1: [3, 3] }),
      http.post(restUrl('rpc/set_campaign_paused'), async ({ request }) => {
        const body = (await request.json()) as { p_campaign_id: string; p_paused: boolean }
        calls.push(body)
        status = body.p_paused ? 'paused' : 'active'
        return HttpResponse.json({ id: body.p_campaign_id, status })
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/advertiser')
    await user.click(await screen.findByRole('button', { name: 'Pause Morning Brew' }))
    expect(await screen.findByText('Campaign paused')).toBeInTheDocument()
    expect(await screen.findByTestId('campaign-status')).toHaveTextContent('Paused')
    await user.click(await screen.findByRole('button', { name: 'Resume Morning Brew' }))
    expect(await screen.findByText('Campaign resumed')).toBeInTheDocument()
    await waitFor(() => expect(screen.getByTestId('campaign-status')).toHaveTextContent('Active'))
    expect(calls).toEqual([
      { p_campaign_id: 'c1', p_paused: true },
      { p_campaign_id: 'c1', p_paused: false },
    ])
  })

  it("shows the database's message when pausing is refused", async () => {
    signInAs('advertiser')
    server.use(
      walletHandler(),
      http.get(restUrl('campaigns'), () => HttpResponse.json([campaign({})])),
      subscriberCounts({}),
      http.post(restUrl('rpc/set_campaign_paused'), () =>
        postgrestError(400, 'Only active campaigns can be paused', '22023'),
      ),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/advertiser')
    await user.click(await screen.findByRole('button', { name: 'Pause Morning Brew' }))
    expect(
      await screen.findByText('Failed to pause the campaign: Only active campaigns can be paused'),
    ).toBeInTheDocument()
  })

  it('sends a publisher to their own dashboard', async () => {
    signInAs('publisher')
    const { router } = renderRoute('/dashboard/advertiser')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/publisher'))
  })
})
