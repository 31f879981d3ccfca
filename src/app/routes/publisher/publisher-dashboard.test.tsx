import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, rpcArgs, server } from '../../../testing/msw-server'
import { renderRoute, storeTestSession } from '../../../testing/render-route'

const PUBLISHER = { id: '00000000-0000-4000-a000-000000000003', email: 'publisher@growletter.test' }

const sourceRow = (overrides: Record<string, unknown> = {}) => ({
  id: 's1',
  publisher_id: PUBLISHER.id,
  name: "Pat's Product Notes",
  description: null,
  image_url: null,
  url: 'https://patnotes.example.com',
  platform: 'newsletter',
  category: 'Technology',
  status: 'approved',
  review_note: null,
  unified_code: 'demo-approved',
  magic_link: 'magic/demo-approved',
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
  ...overrides,
})

function signInPublisher(userType: 'publisher' | 'advertiser' = 'publisher') {
  storeTestSession({ ...PUBLISHER, userType })
  server.use(
    http.get(restUrl('profiles'), () => HttpResponse.json([{ user_type: userType }])),
    http.post(restUrl('rpc/ensure_wallet_exists'), () => HttpResponse.json({})),
    http.post(restUrl('rpc/claim_signup_bonus'), () => HttpResponse.json({ paid: false })),
  )
}

function publisherData(
  sources: ReturnType<typeof sourceRow>[] = [
    sourceRow(),
    sourceRow({
      id: 's2',
      name: 'Pat on X',
      status: 'pending_review',
      unified_code: 'demo-pending',
      review_note: 'Add a link to your profile',
    }),
  ],
  revisions: unknown[] = [],
) {
  const inserted: unknown[] = []
  server.use(
    // Partner programs: one link still brings readers its source is not paid for (the overview's notice).
    http.get(restUrl('rpc/publisher_partnerships'), () =>
      HttpResponse.json([
        {
          campaign_id: 'c9',
          campaign_name: 'Founder Finance',
          source_id: 's1',
          source_name: "Pat's Product Notes",
          partner_mode: 'open',
          status: 'blocked',
          price: '3.00',
          earning: '2.40',
          own_price: false,
          message: null,
          decided_at: '2026-11-20T10:00:00Z',
          may_promote: false,
          unpaid_readers: 2,
        },
      ]),
    ),
    http.get(restUrl('audience_sources'), () => HttpResponse.json(sources)),
    http.get(restUrl('content_revisions'), () => HttpResponse.json(revisions)),
    http.post(restUrl('audience_sources'), async ({ request }) => {
      const body = await request.json()
      inserted.push(body)
      return HttpResponse.json(
        { ...sourceRow({ id: 's3', status: 'pending_review' }), ...(body as object) },
        { status: 201 },
      )
    }),
    // Click totals per source and the reasons, as the database totals them.
    http.get(restUrl('rpc/source_figures'), () =>
      HttpResponse.json([
        { source_id: 's1', source_name: "Pat's Product Notes", counted_clicks: 2, not_counted_clicks: 1 },
        { source_id: 's2', source_name: 'Pat on X', counted_clicks: 0, not_counted_clicks: 1 },
      ]),
    ),
    http.get(restUrl('rpc/source_not_counted'), () =>
      HttpResponse.json([
        { source_id: 's1', kind: 'click', reason: 'duplicate_visitor', label: 'Same visitor within 1 hour', total: 1 },
        { source_id: 's2', kind: 'click', reason: 'source_inactive', label: 'Source not approved', total: 1 },
      ]),
    ),
    http.get(restUrl('rpc/source_totals'), () =>
      HttpResponse.json({
        clicks: 9,
        counted_clicks: 7,
        subscriptions: 4,
        confirmations: 4,
        conversions: 3,
        earnings: '4.80',
        updated_at: '2026-04-08T09:07:00Z',
      }),
    ),
    http.head(restUrl('wallet_transactions'), () => new HttpResponse(null, { headers: { 'Content-Range': '*/3' } })),
    http.get(restUrl('wallet_transactions'), () =>
      HttpResponse.json([
        { type: 'earning', status: 'pending', amount: 4.8 },
        { type: 'earning', status: 'completed', amount: 120 },
        { type: 'payout', status: 'completed', amount: -50 },
      ]),
    ),
    // The figures come from the database; the screen only formats them.
    http.get(restUrl('rpc/publisher_balance'), () =>
      HttpResponse.json({ pending: 4.8, available: 70, requested: 0, paid: 50 }),
    ),
    http.get(restUrl('campaigns'), () => HttpResponse.json([{ id: 'c1', name: 'Morning Brew' }])),
    // The source's subscribers in the advertisers' email tools: 1 of 2 read back engaged (the database's rate).
    http.get(restUrl('rpc/esp_engagement_figures'), () =>
      HttpResponse.json([
        {
          source_id: 's1',
          source_name: "Pat's Product Notes",
          delivered: 2,
          checked: 2,
          engaged: 1,
          engagement_rate: '50.00',
        },
      ]),
    ),
    http.get(restUrl('rpc/daily_figures'), () => HttpResponse.json([])),
    http.get(restUrl('rpc/publisher_unpaid_readers'), () => HttpResponse.json([])),
    http.get(restUrl('rpc/publisher_figures'), async ({ request }) => {
      const { p_group } = rpcArgs(request) as { p_group: string }
      return HttpResponse.json(
        p_group === 'source'
          ? [
              {
                id: 's1',
                name: "Pat's Product Notes",
                views: 11,
                clicks: 4,
                conversions: 1,
                ctr: '25.00',
                earnings: '1.60',
              },
            ]
          : [
              { id: 'c1', name: 'Morning Brew', views: 9, clicks: 4, conversions: 1, ctr: '25.00', earnings: '1.60' },
              { id: 'c9', name: 'Paused Letter', views: 2, clicks: 0, conversions: 0, ctr: '0.00', earnings: '0.00' },
            ],
      )
    }),
  )
  return { inserted }
}

describe('publisher area', () => {
  it('sends a visitor to /login', async () => {
    const { router } = renderRoute('/dashboard/publisher')
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
  })

  it('sends an advertiser to their own dashboard', async () => {
    signInPublisher('advertiser')
    server.use(http.all(restUrl('*'), () => HttpResponse.json([])))
    const { router } = renderRoute('/dashboard/publisher')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/advertiser'))
  })

  it('overview: names a link whose readers are not paid because its source is not a partner', async () => {
    signInPublisher()
    publisherData()
    renderRoute('/dashboard/publisher')
    const notice = await screen.findByTestId('partner-notice')
    expect(notice).toHaveTextContent('Some of your links are not paid: “Not a partner of this newsletter”')
    expect(notice).toHaveTextContent(
      "Pat's Product Notes → Founder Finance: 2 readers in the last 30 days (the advertiser blocked this source)",
    )
    expect(within(notice).getByRole('link', { name: 'See your offers' })).toHaveAttribute(
      'href',
      '/dashboard/publisher/offers',
    )
  })

  it('overview: earnings from the database, this week, and each source with its magic link and click reasons', async () => {
    signInPublisher()
    publisherData()
    renderRoute('/dashboard/publisher')
    await waitFor(() => expect(screen.getByTestId('earnings-pending')).toHaveTextContent('4.80 credits'))
    expect(screen.getByTestId('earnings-available')).toHaveTextContent('70.00 credits')
    expect(screen.getByTestId('earnings-paid')).toHaveTextContent('50.00 credits')
    await waitFor(() => expect(screen.getByTestId('week-clicks')).toHaveTextContent('7'))
    const updated = new Date('2026-04-08T09:07:00Z')
    expect(screen.getByTestId('figures-updated')).toHaveTextContent(
      `Updated ${String(updated.getHours()).padStart(2, '0')}:${String(updated.getMinutes()).padStart(2, '0')}`,
    )
    expect(screen.getByTestId('week-subscribers')).toHaveTextContent('3')
    expect(screen.getByTestId('week-confirmed')).toHaveTextContent('Confirmed subscribers4')

    const [approved, pending] = await screen.findAllByTestId('publisher-source')
    expect(within(approved).getByTestId('magic-link')).toHaveTextContent(`${window.location.origin}/earn/demo-approved`)
    expect(
      within(approved).getByRole('button', { name: "Copy the magic link of Pat's Product Notes" }),
    ).toBeInTheDocument()
    await waitFor(() => expect(within(approved).getByTestId('source-clicks')).toHaveTextContent('Counted clicks2'))
    expect(within(approved).getByTestId('source-clicks')).toHaveTextContent('Same visitor within 1 hour: 1')
    expect(within(pending).getByText('Waiting for review')).toBeInTheDocument()
    expect(within(pending).getByTestId('magic-link-pending')).toHaveTextContent(
      'Pending review. This link starts working once the source is approved.',
    )
    expect(within(pending).queryByTestId('magic-link')).toBeNull()
    expect(within(pending).queryByRole('button', { name: /Copy the magic link/ })).toBeNull()
    expect(within(pending).getByTestId('review-note')).toHaveTextContent('Add a link to your profile')
    expect(within(pending).getByTestId('source-clicks')).toHaveTextContent('Source not approved: 1')
  })

  it('sources: per-newsletter campaign links for a live source, and a new source goes in as pending_review', async () => {
    signInPublisher()
    const { inserted } = publisherData()
    renderRoute('/dashboard/publisher/sources')
    const [approved] = await screen.findAllByTestId('publisher-source')
    await userEvent.click(await within(approved).findByText(/Campaign links per newsletter/))
    expect(within(approved).getByText(`${window.location.origin}/campaign/demo-approved/c1`)).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Add source' }))
    const dialog = await screen.findByRole('dialog')
    // Name and address pasted (click, then paste), not typed key by key: the test is about what the form accepts.
    await userEvent.click(within(dialog).getByLabelText('Name'))
    await userEvent.paste('Pat on Bluesky')
    await userEvent.click(within(dialog).getByLabelText('URL'))
    await userEvent.paste('not a url')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit for review' }))
    expect(await within(dialog).findByText('Enter an address starting with http:// or https://')).toBeInTheDocument()
    expect(inserted).toHaveLength(0)

    await userEvent.clear(within(dialog).getByLabelText('URL'))
    await userEvent.click(within(dialog).getByLabelText('URL'))
    await userEvent.paste('https://bsky.app/profile/pat')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit for review' }))
    await waitFor(() => expect(inserted).toHaveLength(1))
    expect(inserted[0]).toMatchObject({
      name: 'Pat on Bluesky',
      url: 'https://bsky.app/profile/pat',
      publisher_id: PUBLISHER.id,
      status: 'pending_review',
    })
  })

  it('sources: an approved source edited shows its changes waiting for review, and the dialog says edits wait', async () => {
    signInPublisher()
    publisherData(
      [sourceRow({ approved_at: '2026-11-01T11:00:00Z' })],
      [
        {
          subject_id: 's1',
          status: 'pending',
          changes: { name: 'Pat’s Notes', category: 'marketing' },
          review_note: null,
          created_at: '2026-11-03T10:00:00Z',
        },
      ],
    )
    renderRoute('/dashboard/publisher/sources')
    const notice = await screen.findByTestId('source-revision')
    expect(notice).toHaveTextContent('Changes waiting for review')
    expect(notice).toHaveTextContent('Name:Pat’s Notes')
    expect(notice).toHaveTextContent('Category:Marketing')
    await userEvent.click(screen.getByRole('button', { name: "Edit Pat's Product Notes" }))
    const dialog = await screen.findByRole('dialog')
    expect(dialog).toHaveTextContent('your changes wait for an admin, and visitors see the approved version until then')
    expect(dialog).not.toHaveTextContent('Changes are visible once saved')
  })

  it('sources: a rejected revision shows the reviewer’s note', async () => {
    signInPublisher()
    publisherData(
      [sourceRow({ approved_at: '2026-11-01T11:00:00Z' })],
      [
        {
          subject_id: 's1',
          status: 'rejected',
          changes: { name: 'X' },
          review_note: 'Misleading',
          created_at: '2026-11-03T10:00:00Z',
        },
      ],
    )
    renderRoute('/dashboard/publisher/sources')
    const notice = await screen.findByTestId('source-revision')
    expect(notice).toHaveTextContent('Your last changes were not approved')
    expect(notice).toHaveTextContent("The reviewer's note: “Misleading”")
  })

  it('stats: per source and per campaign, with the real name of a campaign that is no longer public, and each source’s engagement', async () => {
    signInPublisher()
    publisherData()
    renderRoute('/dashboard/publisher/stats')
    const perCampaign = await screen.findByRole('region', { name: 'Per campaign' })
    expect(within(perCampaign).getByRole('row', { name: /Morning Brew/ })).toHaveTextContent('25.00%')
    expect(within(perCampaign).getByRole('row', { name: /Paused Letter/ })).toHaveTextContent('0.00%')
    const perSource = screen.getByRole('region', { name: 'Per source' })
    const source = within(perSource).getByRole('row', { name: /Pat's Product Notes/ })
    expect(source).toHaveTextContent('11')
    expect(within(source).getByTestId('engagement')).toHaveTextContent('50%1 of 2 opened or clicked')
    expect(within(perSource).getByRole('columnheader', { name: /Opened or clicked, first week/ })).toBeInTheDocument()
    // Engagement is a source's: the per-campaign table has no such column.
    expect(within(perCampaign).queryByRole('columnheader', { name: /Opened or clicked, first week/ })).toBeNull()
  })

  it('payouts: a dialog states the available amount, refuses less than 50 or more than available, and requests it', async () => {
    signInPublisher()
    publisherData()
    const calls: unknown[] = []
    server.use(
      http.get(restUrl('payout_requests'), () =>
        HttpResponse.json([
          {
            id: 'p0',
            amount: 50,
            status: 'paid',
            created_at: '2026-10-01T00:00:00Z',
            paid_at: '2026-10-02T00:00:00Z',
            transfer_reference: 'SEPA-77',
          },
        ]),
      ),
      // A ready Stripe account (payout-setup.test.tsx covers the other states).
      http.get(restUrl('payout_accounts'), () =>
        HttpResponse.json([{ state: 'ready', requirements_due: [], disabled_reason: null, auto_payout: false }]),
      ),
      http.post(restUrl('rpc/request_payout'), async ({ request }) => {
        calls.push(await request.json())
        return HttpResponse.json({ id: 'p1', amount: 60, status: 'requested' })
      }),
    )
    renderRoute('/dashboard/publisher/payouts')
    expect(await screen.findByTestId('payout-available')).toHaveTextContent('70.00 credits')
    expect(screen.getByTestId('payout-row')).toHaveTextContent('Transfer reference SEPA-77')
    // Payout dates in the app's one date format (formatDateTime), as every other dashboard date.
    expect(screen.getByTestId('payout-row')).toHaveTextContent(/Requested Oct 1, 2026, \d{1,2}:\d\d [AP]M/)
    await userEvent.click(screen.getByRole('button', { name: 'Request a payout' }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByTestId('payout-dialog-available')).toHaveTextContent('70.00 credits')
    const amount = within(dialog).getByLabelText('Amount (credits)')
    expect(amount).toHaveValue('70.00')
    await userEvent.clear(amount)
    await userEvent.type(amount, '20')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Request 20.00 credits' }))
    expect(await within(dialog).findByText('The minimum payout is 50 credits')).toBeInTheDocument()
    await userEvent.clear(amount)
    await userEvent.type(amount, '70.01')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Request 70.01 credits' }))
    expect(await within(dialog).findByText('You can request at most your available 70.00 credits')).toBeInTheDocument()
    await userEvent.clear(amount)
    await userEvent.type(amount, '60.5')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Request 60.50 credits' }))
    await waitFor(() => expect(calls).toEqual([{ p_amount: 60.5 }]))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })
})
