import { afterEach, describe, expect, it, vi } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../../testing/msw-server'
import { renderRoute, storeTestSession } from '../../testing/render-route'
import { CAMPAIGNS, campaignRow, campaignsHandler, engagedRatesHandler } from '../../testing/newsletter-fixtures'

vi.mock('@/lib/fingerprint', () => ({ computeFingerprint: async () => 'fp-test' }))

afterEach(() => vi.restoreAllMocks())

const [BREW] = CAMPAIGNS
const SOURCE_ID = '10000000-0000-4000-a000-000000000001'

function rpcRecorder(sourceStatus = 'approved') {
  const calls: { fn: string; body: Record<string, unknown> }[] = []
  const live = sourceStatus === 'approved'
  server.use(
    http.post(restUrl('rpc/:fn'), async ({ request, params }) => {
      const body = (await request.json()) as Record<string, unknown>
      calls.push({ fn: String(params.fn), body })
      if (params.fn === 'track_audience_source_click') {
        return HttpResponse.json({
          click_id: 'click-new',
          source_id: SOURCE_ID,
          source_name: "Pat's Product Notes",
          unified_code: 'demo-approved',
          status: live ? 'valid' : 'inactive',
          source_status: sourceStatus,
          counted: live,
          not_counted_reason: live ? null : 'source_inactive',
        })
      }
      return HttpResponse.json({ recorded: true, page_views: 1, unique_views: 1 })
    }),
  )
  return calls
}

describe('Browse Newsletters', () => {
  it('lists active newsletters with the advertiser name under both /newsletters and /campaigns', async () => {
    const seen: URL[] = []
    server.use(campaignsHandler(CAMPAIGNS, seen))
    renderRoute('/campaigns')
    expect(await screen.findByRole('heading', { level: 1, name: 'Browse Newsletters' })).toBeInTheDocument()
    const cards = await screen.findAllByTestId('newsletter-card')
    expect(cards).toHaveLength(2)
    expect(within(cards[0]).getByText('by Ada Advertiser')).toBeInTheDocument()
    const list = seen.find((u) => u.searchParams.get('select')?.includes('profiles!campaigns_advertiser_id_fkey'))!
    expect(list.searchParams.get('status')).toBe('eq.active')
  })

  it('shows each card’s landing facts and its engaged rate from the database once it rests on 20 readers', async () => {
    const [brew, digest] = [
      campaignRow(BREW.id, 'Morning Brew', { frequency: 'weekly', audience_size: 12400 }),
      campaignRow('20000000-0000-4000-a000-000000000002', 'Dev Digest'),
    ]
    server.use(
      campaignsHandler([brew, digest]),
      engagedRatesHandler([
        { campaign_id: brew.id, readers: 40, engaged: 25, engaged_rate: '62.5' },
        { campaign_id: digest.id, readers: 7, engaged: 7, engaged_rate: null },
      ]),
    )
    renderRoute('/newsletters')
    const [first, second] = await screen.findAllByTestId('newsletter-card')
    await waitFor(() =>
      expect(within(first!).getByTestId('newsletter-card-facts')).toHaveTextContent(
        'Goes outWeeklyReaders12,400Engaged rate62.5%',
      ),
    )
    // Nothing stated and too few readers for a rate: no facts line at all.
    expect(within(second!).queryByTestId('newsletter-card-facts')).toBeNull()
  })

  it('writes page view, category filter and search tracking to the console (SPEC §7)', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {})
    server.use(campaignsHandler())
    renderRoute('/newsletters?source=demo-approved')
    await screen.findAllByTestId('newsletter-card')
    expect(info).toHaveBeenCalledWith(
      '[tracking] page view',
      expect.objectContaining({ page: 'newsletters', source: 'demo-approved' }),
    )
    await userEvent.selectOptions(screen.getByLabelText('Category'), 'Business')
    expect(info).toHaveBeenCalledWith('[tracking] category filter', { category: 'business' })
    await userEvent.type(screen.getByLabelText('Search newsletters'), 'brew')
    await waitFor(() => expect(info).toHaveBeenCalledWith('[tracking] search', { search: 'brew' }))
  })

  it('says so when no newsletter is open', async () => {
    server.use(campaignsHandler([]))
    renderRoute('/newsletters')
    expect(await screen.findByText('No newsletters are open for subscribers right now.')).toBeInTheDocument()
  })
})

describe('/newsletters/{id}', () => {
  it('shows the newsletter with its subscribe form', async () => {
    server.use(campaignsHandler())
    renderRoute(`/newsletters/${BREW.id}`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Morning Brew' })).toBeInTheDocument()
    expect(screen.getByTestId('subscribe-selection')).toHaveTextContent('Newsletter: Morning Brew')
  })

  it('shows a clear not-found state for an unknown or never approved newsletter', async () => {
    server.use(
      campaignsHandler([]),
      http.get(restUrl('rpc/newsletter_availability'), () => HttpResponse.json('not_found')),
    )
    renderRoute(`/newsletters/${BREW.id}`)
    expect(await screen.findByRole('heading', { name: 'Newsletter not found' })).toBeInTheDocument()
  })

  it.each([
    [
      'out_of_budget',
      'This newsletter is not taking new subscribers right now',
      /budget for new subscribers is used up/,
    ],
    ['paused', 'This newsletter is paused', /paused new subscriptions/],
    ['closed', 'This newsletter is closed', /no longer takes new subscribers/],
  ])('a newsletter %s says why, not "not found", and leads to the others', async (reason, title, text) => {
    server.use(
      campaignsHandler([]),
      http.get(restUrl('rpc/newsletter_availability'), () => HttpResponse.json(reason)),
    )
    renderRoute(`/newsletters/${BREW.id}`)
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument()
    expect(screen.getByText(text)).toBeInTheDocument()
    expect(screen.queryByText('Newsletter not found')).toBeNull()
    expect(screen.getByRole('link', { name: 'Browse other newsletters' })).toHaveAttribute('href', '/newsletters')
  })

  it('a failed load says so in a sentence, never the client error', async () => {
    server.use(
      http.get(restUrl('campaigns'), () =>
        HttpResponse.json(
          { message: 'TypeError: Failed to fetch', code: '', details: null, hint: null },
          { status: 500 },
        ),
      ),
    )
    renderRoute(`/newsletters/${BREW.id}`)
    expect(await screen.findByRole('heading', { name: 'Could not load this newsletter' })).toBeInTheDocument()
    expect(screen.getByRole('alert')).not.toHaveTextContent(/TypeError/)
  })
})

describe('campaign link pages', () => {
  it('/campaign/{code}/{id} records one click and one page view, then subscribes with that attribution', async () => {
    server.use(campaignsHandler())
    const calls = rpcRecorder()
    renderRoute(`/campaign/demo-approved/${BREW.id}`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Morning Brew' })).toBeInTheDocument()
    expect(await screen.findByTestId('campaign-source')).toHaveTextContent("Pat's Product Notes")
    await waitFor(() =>
      expect(calls.map((c) => c.fn)).toEqual(['track_audience_source_click', 'record_campaign_page_view']),
    )
    expect(calls[1].body).toEqual({ p_click_id: 'click-new', p_campaign_id: BREW.id })
    expect(localStorage.getItem('audience_source_id')).toBe(SOURCE_ID)
  })

  it('/campaign/{code}/{id} of a source waiting for review says the link starts working once approved', async () => {
    server.use(campaignsHandler())
    const calls = rpcRecorder('pending_review')
    renderRoute(`/campaign/demo-pending/${BREW.id}`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Morning Brew' })).toBeInTheDocument()
    expect(await screen.findByTestId('campaign-source-pending')).toHaveTextContent(
      'This link starts working once the source is approved. You can still subscribe below.',
    )
    expect(screen.queryByTestId('campaign-source')).toBeNull()
    // No page view on a click that does not count, and no attribution kept.
    expect(calls.map((c) => c.fn)).toEqual(['track_audience_source_click'])
    expect(localStorage.getItem('audience_source_id')).toBeNull()
  })

  it('reuses the click this browser session already made on the same source', async () => {
    server.use(campaignsHandler())
    sessionStorage.setItem('magic_link_source', 'demo-approved')
    localStorage.setItem('audience_source_id', SOURCE_ID)
    localStorage.setItem(
      'source_attribution',
      JSON.stringify({ sourceId: SOURCE_ID, unifiedCode: 'demo-approved', clickId: 'click-old' }),
    )
    const calls = rpcRecorder()
    renderRoute(`/campaign/demo-approved/${BREW.id}`)
    await waitFor(() => expect(calls.map((c) => c.fn)).toEqual(['record_campaign_page_view']))
    expect(calls[0].body).toEqual({ p_click_id: 'click-old', p_campaign_id: BREW.id })
  })

  it('/campaign/{id} shows the newsletter without recording anything', async () => {
    server.use(campaignsHandler())
    const calls = rpcRecorder()
    renderRoute(`/campaign/${BREW.id}`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Morning Brew' })).toBeInTheDocument()
    expect(calls).toHaveLength(0)
  })

  it('/campaign alone goes to /newsletters', async () => {
    server.use(campaignsHandler())
    const { router } = renderRoute('/campaign')
    await waitFor(() => expect(router.state.location.pathname).toBe('/newsletters'))
  })

  it('the admin preview tells a visitor it is for admins only', async () => {
    renderRoute(`/campaign/admin/${BREW.id}`)
    expect(await screen.findByRole('heading', { name: 'Admins only' })).toBeInTheDocument()
  })

  it('the admin preview shows a campaign in any status to an admin and records nothing', async () => {
    storeTestSession({ id: '00000000-0000-4000-a000-000000000001', email: 'admin@growletter.test', userType: 'admin' })
    const seen: URL[] = []
    server.use(
      http.get(restUrl('profiles'), () => HttpResponse.json([{ user_type: 'admin' }])),
      http.post(restUrl('rpc/ensure_wallet_exists'), () => HttpResponse.json({})),
      http.post(restUrl('rpc/claim_signup_bonus'), () => HttpResponse.json({ paid: false })),
      campaignsHandler([{ ...BREW, status: 'paused' }], seen),
    )
    const calls = rpcRecorder()
    server.use(
      http.post(restUrl('rpc/ensure_wallet_exists'), () => HttpResponse.json({})),
      http.post(restUrl('rpc/claim_signup_bonus'), () => HttpResponse.json({ paid: false })),
    )
    renderRoute(`/campaign/admin/${BREW.id}`)
    expect(await screen.findByTestId('admin-preview-note')).toHaveTextContent('Status: Paused.')
    expect(seen.at(-1)!.searchParams.get('status')).toBeNull()
    expect(
      calls.filter((c) => c.fn === 'track_audience_source_click' || c.fn === 'record_campaign_page_view'),
    ).toHaveLength(0)
  })
})

describe("a newsletter's landing page", () => {
  it('tells what its advertiser states: who it is for, how often, how many readers, and a sample issue', async () => {
    const row = campaignRow(BREW.id, 'Morning Brew', {
      sample_issue_url: 'https://brew.example/issues/9',
      frequency: 'several_a_week',
      audience_size: 1234567,
      audience_line: 'Busy people who want the business news fast',
    })
    server.use(campaignsHandler([row]))
    renderRoute(`/newsletters/${BREW.id}`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Morning Brew' })).toBeInTheDocument()
    expect(screen.getByTestId('newsletter-audience-line')).toHaveTextContent(
      'Busy people who want the business news fast',
    )
    const facts = within(screen.getByTestId('newsletter-facts'))
    expect(facts.getByText('Goes out').nextSibling).toHaveTextContent('Several times a week')
    expect(facts.getByText('Readers').nextSibling).toHaveTextContent('1,234,567')
    const sample = screen.getByRole('link', { name: 'Read a sample issue (opens in a new tab)' })
    expect(sample).toHaveAttribute('href', 'https://brew.example/issues/9')
    expect(sample).toHaveAttribute('target', '_blank')
    expect(sample.getAttribute('rel')).toMatch(/\bnoopener\b/)
  })

  it('shows none of it when nothing is stated, and never a link that is not https', async () => {
    const row = campaignRow(BREW.id, 'Morning Brew', { sample_issue_url: 'javascript:alert(1)' })
    server.use(campaignsHandler([row]))
    renderRoute(`/newsletters/${BREW.id}`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Morning Brew' })).toBeInTheDocument()
    expect(screen.queryByTestId('newsletter-facts')).not.toBeInTheDocument()
    expect(screen.queryByTestId('newsletter-audience-line')).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: /sample issue/ })).not.toBeInTheDocument()
  })

  it('an audience of 0 readers is stated, not hidden', async () => {
    server.use(campaignsHandler([campaignRow(BREW.id, 'Morning Brew', { audience_size: 0 })]))
    renderRoute(`/newsletters/${BREW.id}`)
    const facts = within(await screen.findByTestId('newsletter-facts'))
    expect(facts.getByText('Readers').nextSibling).toHaveTextContent('0')
    expect(facts.queryByText('Goes out')).not.toBeInTheDocument()
  })
})
