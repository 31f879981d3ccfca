// The publisher's Offers page and the unpaid readers on Stats, against MSW answers shaped like the database's:
// each screen state (loading, error, empty, no source, funded, out of budget, out of balance, pending link) and
// the Stats date range reaching the database.
import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, rpcArgs, server } from '../../../testing/msw-server'
import { renderRoute, storeTestSession } from '../../../testing/render-route'

const PUBLISHER = { id: '00000000-0000-4000-a000-000000000003', email: 'publisher@growletter.test' }

const source = (overrides: Record<string, unknown> = {}) => ({
  id: 's1',
  publisher_id: PUBLISHER.id,
  name: "Pat's Product Notes",
  description: null,
  image_url: null,
  url: 'https://patnotes.example.com',
  platform: 'newsletter',
  category: 'technology',
  status: 'approved',
  review_note: null,
  unified_code: 'demo-approved',
  magic_link: 'magic/demo-approved',
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
  ...overrides,
})

const offer = (overrides: Record<string, unknown> = {}) => ({
  campaign_id: 'c1',
  name: 'Morning Brew',
  description: 'Daily business news',
  image_url: null,
  website_url: null,
  category: 'business',
  price: '35.00',
  earning: '28.00',
  funding_status: 'funded',
  subscribers_left: 3,
  confirmation_rate: '80.0',
  settled_subscriptions: 10,
  ...overrides,
})

function signIn() {
  storeTestSession({ ...PUBLISHER, userType: 'publisher' })
  server.use(
    http.get(restUrl('profiles'), () => HttpResponse.json([{ user_type: 'publisher' }])),
    http.post(restUrl('rpc/ensure_wallet_exists'), () => HttpResponse.json({})),
    http.post(restUrl('rpc/claim_signup_bonus'), () => HttpResponse.json({ paid: false })),
  )
}

function answer({
  sources = [source()],
  offers = [offer()] as unknown[] | 'error' | 'never',
  rules = [] as { id: string; pay_rule: string; engagement_window_days: number }[],
  rates = [] as { source_id: string; readers: number; engaged: number; engaged_rate: string | null }[],
  partnerships = [] as unknown[],
} = {}) {
  const asked = { offers: false }
  server.use(
    http.get(restUrl('rpc/publisher_partnerships'), () => HttpResponse.json(partnerships)),
    http.get(restUrl('audience_sources'), () => HttpResponse.json(sources)),
    // Each offer's pay rule, read from the newsletter (campaigns).
    http.get(restUrl('campaigns'), () => HttpResponse.json(rules)),
    http.get(restUrl('rpc/engaged_rates'), () => HttpResponse.json(rates)),
    http.get(restUrl('rpc/publisher_offers'), () => {
      asked.offers = true
      return offers === 'error'
        ? HttpResponse.json({ message: 'permission denied for function publisher_offers' }, { status: 403 })
        : offers === 'never'
          ? new Promise<Response>(() => {})
          : HttpResponse.json(offers)
    }),
  )
  return asked
}

const partnership = (overrides: Record<string, unknown> = {}) => ({
  campaign_id: 'c1',
  source_id: 's1',
  partner_mode: 'approval',
  status: null,
  price: '35.00',
  earning: '28.00',
  own_price: false,
  message: null,
  decided_at: null,
  may_promote: false,
  ...overrides,
})

describe('partner programs on the offers', () => {
  it('marks a newsletter by approval, warns that the link is not paid, and applies with a message by clicking', async () => {
    signIn()
    answer({ partnerships: [partnership()] })
    const applied: unknown[] = []
    server.use(
      http.post(restUrl('rpc/apply_to_campaign'), async ({ request }) => {
        applied.push(await request.json())
        return HttpResponse.json('p1')
      }),
    )
    renderRoute('/dashboard/publisher/offers')
    const card = await screen.findByTestId('offer')
    expect(await within(card).findByTestId('offer-partner-mode')).toHaveTextContent('By approval')
    const state = within(card).getByTestId('partner-state')
    expect(state).toHaveTextContent('Readers through this link are not paid (“Not a partner of this newsletter”)')
    await userEvent.click(within(state).getByRole('button', { name: "Apply with Pat's Product Notes" }))
    // Pasted (click, then paste), not typed key by key: the test is about what is sent.
    await userEvent.click(within(state).getByLabelText(/Why Pat's Product Notes fits Morning Brew/))
    await userEvent.paste('Designers read me')
    await userEvent.click(within(state).getByRole('button', { name: 'Send application' }))
    await waitFor(() =>
      expect(applied).toEqual([{ p_campaign_id: 'c1', p_source_id: 's1', p_message: 'Designers read me' }]),
    )
  })

  it('refuses a message over 500 characters before asking the database', async () => {
    signIn()
    answer({ partnerships: [partnership()] })
    renderRoute('/dashboard/publisher/offers')
    const state = await screen.findByTestId('partner-state')
    await userEvent.click(within(state).getByRole('button', { name: "Apply with Pat's Product Notes" }))
    const box = within(state).getByLabelText(/Why Pat's Product Notes fits Morning Brew/)
    await userEvent.click(box)
    await userEvent.paste('x'.repeat(501))
    await userEvent.click(within(state).getByRole('button', { name: 'Send application' }))
    expect(await within(state).findByRole('alert')).toHaveTextContent('Keep the message under 500 characters')
  })

  it('shows an approved partner its own price and earning, and a blocked source that it is not paid', async () => {
    signIn()
    answer({
      sources: [source(), source({ id: 's2', name: 'Second Source', unified_code: 'second' })],
      partnerships: [
        partnership({ status: 'approved', price: '12.50', earning: '10.00', own_price: true, may_promote: true }),
        partnership({ source_id: 's2', partner_mode: 'open', status: 'blocked' }),
      ],
    })
    renderRoute('/dashboard/publisher/offers')
    const [approved, blocked] = await screen.findAllByTestId('partner-state')
    expect(approved).toHaveTextContent('Partner. Your own price: 12.50 credits per subscriber; you earn 10.00 credits.')
    expect(blocked).toHaveTextContent(
      'The advertiser does not work with this source. Readers through this link are not paid',
    )
  })
})

describe('publisher offers', () => {
  it('shows a spinner while the offers load', async () => {
    signIn()
    const asked = answer({ offers: 'never' })
    renderRoute('/dashboard/publisher/offers')
    expect(await screen.findByRole('heading', { name: 'Offers', level: 1 })).toBeInTheDocument()
    await waitFor(() => expect(asked.offers).toBe(true))
    expect(screen.getByRole('status')).toHaveTextContent('Loading…')
    expect(screen.queryByTestId('offer')).toBeNull()
  })

  it('says in a sentence when the offers cannot load, with a retry', async () => {
    signIn()
    answer({ offers: 'error' })
    renderRoute('/dashboard/publisher/offers')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent("We couldn't load the offers. Try again.")
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })

  it('says when no newsletter is looking for subscribers', async () => {
    signIn()
    answer({ offers: [] })
    renderRoute('/dashboard/publisher/offers')
    expect(await screen.findByText(/No newsletters are looking for subscribers right now/)).toBeInTheDocument()
  })

  it('shows what a funded newsletter pays, its category, room and confirmation rate, and a link to copy', async () => {
    signIn()
    answer()
    renderRoute('/dashboard/publisher/offers')
    const card = await screen.findByTestId('offer')
    expect(within(card).getByRole('heading', { name: 'Morning Brew' })).toBeInTheDocument()
    expect(card).toHaveTextContent('Business')
    expect(within(card).getByTestId('offer-earning')).toHaveTextContent('28.00 credits')
    expect(card).toHaveTextContent('Price 35.00 credits minus the 20% platform fee')
    expect(within(card).getByTestId('offer-funding')).toHaveTextContent('Paying · room for 3 more subscribers')
    expect(within(card).getByTestId('offer-confirmation-rate')).toHaveTextContent('80.0% confirm by email')
    const link = within(card).getByTestId('offer-link')
    expect(link).toHaveTextContent(`${window.location.origin}/campaign/demo-approved/c1`)
    expect(
      within(link).getByRole('button', { name: "Copy the Morning Brew link of Pat's Product Notes" }),
    ).toBeInTheDocument()
  })

  it('shows each offer’s pay rule before it is promoted, and each source’s engaged rate once it has 20 readers', async () => {
    signIn()
    answer({
      offers: [offer(), offer({ campaign_id: 'c2', name: 'Readers Only' })],
      rules: [
        { id: 'c1', pay_rule: 'confirmed', engagement_window_days: 14 },
        { id: 'c2', pay_rule: 'engaged', engagement_window_days: 21 },
      ],
      rates: [{ source_id: 's1', readers: 40, engaged: 30, engaged_rate: '75.0' }],
    })
    renderRoute('/dashboard/publisher/offers')
    const cards = await screen.findAllByTestId('offer')
    expect(within(cards[0]!).getByTestId('offer-pay-rule')).toHaveTextContent('Pays per confirmed reader')
    await waitFor(() =>
      expect(within(cards[1]!).getByTestId('offer-pay-rule')).toHaveTextContent(
        'Pays per engaged reader: opens or clicks within 21 days',
      ),
    )
    expect(within(cards[1]!).getByTestId('offer-pay-rule')).toHaveTextContent('the others are not paid')
    expect(await screen.findByTestId('source-engaged-rate')).toHaveTextContent('75.0% engaged (40 readers)')
  })

  it('says a source’s engaged rate is not shown below 20 readers', async () => {
    signIn()
    answer({ rates: [{ source_id: 's1', readers: 7, engaged: 7, engaged_rate: null }] })
    renderRoute('/dashboard/publisher/offers')
    expect(await screen.findByTestId('source-engaged-rate')).toHaveTextContent('Too few readers yet (7 of 20)')
  })

  it('tells a newsletter out of budget or out of balance, and a rate too new to tell', async () => {
    signIn()
    answer({
      offers: [
        offer({ campaign_id: 'c2', name: 'Spent Letter', funding_status: 'budget_exhausted', subscribers_left: 0 }),
        offer({
          campaign_id: 'c3',
          name: 'Broke Letter',
          funding_status: 'balance_exhausted',
          confirmation_rate: null,
        }),
      ],
    })
    renderRoute('/dashboard/publisher/offers')
    const [spent, broke] = await screen.findAllByTestId('offer')
    expect(within(spent!).getByTestId('offer-funding')).toHaveTextContent(
      'Budget used up: new subscribers are not paid until the advertiser raises it',
    )
    expect(within(broke!).getByTestId('offer-funding')).toHaveTextContent(
      "On hold: the advertiser's balance cannot pay another subscriber",
    )
    expect(within(broke!).getByTestId('offer-confirmation-rate')).toHaveTextContent('Too few sign-ups yet to tell')
  })

  it('shows a source waiting for review as pending, without a Copy button; a rejected one not at all', async () => {
    signIn()
    answer({
      sources: [
        source({ id: 's2', name: 'Pat on X', status: 'pending_review', unified_code: 'demo-pending' }),
        source({ id: 's3', name: 'Old blog', status: 'rejected', unified_code: 'demo-rejected' }),
      ],
    })
    renderRoute('/dashboard/publisher/offers')
    const card = await screen.findByTestId('offer')
    const links = within(card).getAllByTestId('offer-link')
    expect(links).toHaveLength(1)
    expect(links[0]).toHaveTextContent('Pat on X')
    expect(links[0]).toHaveTextContent('This link starts working once the source is approved')
    expect(within(card).queryByRole('button', { name: /Copy/ })).toBeNull()
    expect(card).not.toHaveTextContent('Old blog')
  })

  it('asks a publisher without a source to add one', async () => {
    signIn()
    answer({ sources: [] })
    renderRoute('/dashboard/publisher/offers')
    const note = await screen.findByTestId('offers-no-source')
    expect(within(note).getByRole('link', { name: 'Add a source' })).toHaveAttribute(
      'href',
      '/dashboard/publisher/sources',
    )
  })
})

describe('publisher stats: date range and unpaid readers', () => {
  function stats(readers: unknown[] | 'error') {
    const ranges: unknown[] = []
    server.use(
      http.get(restUrl('rpc/publisher_figures'), async ({ request }) => {
        ranges.push(rpcArgs(request))
        return HttpResponse.json([])
      }),
      http.get(restUrl('rpc/daily_figures'), async ({ request }) => {
        const { p_from } = rpcArgs(request) as { p_from: string }
        return HttpResponse.json([
          { day: p_from, views: 0, clicks: 0, conversions: 2, spend: '0.00', earnings: '56.00' },
        ])
      }),
      http.get(restUrl('rpc/publisher_unpaid_readers'), () =>
        readers === 'error'
          ? HttpResponse.json({ message: 'canceling statement due to statement timeout' }, { status: 500 })
          : HttpResponse.json(readers),
      ),
    )
    return ranges
  }

  it('lists each unpaid or refunded reader with the reason in plain words, never an email', async () => {
    signIn()
    stats([
      {
        subscription_id: 'n1',
        confirmed_at: '2026-11-20T09:30:00Z',
        source_id: 's1',
        source_name: "Pat's Product Notes",
        campaign_id: 'c1',
        campaign_name: 'Morning Brew',
        reason: 'refunded',
        detail: 'Dispute upheld: sign-ups from one office',
        lost_earning: '28.00',
        total_count: 2,
      },
      {
        subscription_id: 'n2',
        confirmed_at: '2026-11-19T09:30:00Z',
        source_id: 's1',
        source_name: "Pat's Product Notes",
        campaign_id: 'c1',
        campaign_name: 'Morning Brew',
        reason: 'no_click',
        detail: null,
        lost_earning: null,
        total_count: 2,
      },
    ])
    renderRoute('/dashboard/publisher/stats')
    const [refunded, unpaid] = await screen.findAllByTestId('unpaid-reader')
    expect(refunded).toHaveTextContent(
      'Refunded during screening (fraud or dispute) — Dispute upheld: sign-ups from one office (28.00 credits cancelled)',
    )
    expect(refunded).toHaveTextContent("Morning Brew via Pat's Product Notes")
    expect(unpaid).toHaveTextContent('Not paid: No counted click by the same visitor within 24 hours')
    expect(unpaid).toHaveTextContent('Nov 19, 2026')
  })

  it('says when every reader was paid, and when the list cannot load', async () => {
    signIn()
    stats([])
    const first = renderRoute('/dashboard/publisher/stats')
    expect(await screen.findByTestId('unpaid-readers-empty')).toHaveTextContent(
      'Every reader who confirmed through your links was paid.',
    )
    first.unmount()
    stats('error')
    renderRoute('/dashboard/publisher/stats')
    expect(await screen.findByText("We couldn't load your unpaid readers. Try again.")).toBeInTheDocument()
  })

  it('asks the database for the range picked, and charts it per day', async () => {
    signIn()
    const ranges = stats([])
    renderRoute('/dashboard/publisher/stats')
    await waitFor(() => expect(ranges.length).toBeGreaterThanOrEqual(2))
    expect(ranges[0]).toMatchObject({
      p_group: expect.any(String),
      p_from: expect.any(String),
      p_to: expect.any(String),
    })
    const from = screen.getByLabelText('From')
    await userEvent.clear(from)
    await userEvent.type(from, '2026-11-01')
    const to = screen.getByLabelText('To')
    await userEvent.clear(to)
    await userEvent.type(to, '2026-11-07')
    await waitFor(() => expect(ranges).toContainEqual({ p_group: 'source', p_from: '2026-11-01', p_to: '2026-11-07' }))
    expect(await screen.findByRole('img', { name: /Paid subscribers per day from 2026-11-01/ })).toBeInTheDocument()
  })
})
