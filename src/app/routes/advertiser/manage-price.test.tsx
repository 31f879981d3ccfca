// Issue 23 point 9 on Manage: the price can change (new subscribers only; reserved ones keep their price), pause
// and resume live where the page describes them, and pricing guidance says what publishers earn — on Manage and
// on submit.
import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../../../testing/msw-server'
import { renderRoute, storeTestSession } from '../../../testing/render-route'

const ADVERTISER = { id: '00000000-0000-4000-a000-000000000002', email: 'advertiser@growletter.test' }
const campaign = (overrides: Record<string, unknown> = {}) => ({
  id: 'c1',
  advertiser_id: ADVERTISER.id,
  name: 'Morning Brew',
  description: 'Daily business news',
  image_url: null,
  website_url: 'https://brew.example.com',
  category: 'business',
  status: 'active',
  review_note: null,
  approved_at: '2026-11-01T10:00:00Z',
  price_per_subscriber: 2.5,
  budget_total: 200,
  budget_spent: 10,
  budget_reserved: 5,
  reservations_open: 2,
  pay_rule: 'confirmed',
  engagement_window_days: 14,
  funding_status: 'funded',
  created_at: '2026-11-01T10:00:00Z',
  ...overrides,
})

function signIn(row = campaign(), connection: { provider: string } | null = null) {
  storeTestSession({ ...ADVERTISER, userType: 'advertiser' })
  const updates: unknown[] = []
  const rpcs: { fn: string; body: unknown }[] = []
  server.use(
    // The newsletter's email tool, if connected (paying per engaged reader needs one).
    http.get(restUrl('esp_connections'), () => HttpResponse.json(connection ? [connection] : [])),
    http.get(restUrl('profiles'), () => HttpResponse.json([{ user_type: 'advertiser' }])),
    http.get(restUrl('campaigns'), ({ request }) => {
      const url = new URL(request.url)
      return url.searchParams.get('id') ? HttpResponse.json(row) : HttpResponse.json([row])
    }),
    http.get(restUrl('content_revisions'), () => HttpResponse.json([])),
    http.patch(restUrl('campaigns'), async ({ request }) => {
      updates.push(await request.json())
      return new HttpResponse(null, { status: 204 })
    }),
    http.post(restUrl('rpc/:fn'), async ({ request, params }) => {
      rpcs.push({ fn: String(params.fn), body: await request.json().catch(() => null) })
      return HttpResponse.json(params.fn === 'claim_signup_bonus' ? { paid: false } : {})
    }),
  )
  return { updates, rpcs }
}

describe('manage: price, pause and resume', () => {
  it('changes the price for new subscribers, with what a publisher earns at the new price', async () => {
    const { updates } = signIn()
    renderRoute('/dashboard/advertiser/manage?newsletterId=c1')
    const form = await screen.findByTestId('campaign-price-form')
    expect(form).toHaveTextContent('Now 2.50 credits per subscriber')
    expect(form).toHaveTextContent('the 2 already reserved keep the price they were promised')
    const input = within(form).getByLabelText('New price per subscriber (credits)')
    await userEvent.clear(input)
    await userEvent.type(input, '60')
    await userEvent.click(within(form).getByRole('button', { name: 'Save price' }))
    expect(await within(form).findByText('Price per subscriber must be at most 50.00 credits')).toBeInTheDocument()
    expect(updates).toHaveLength(0)

    await userEvent.clear(input)
    await userEvent.type(input, '3')
    expect(within(form).getByTestId('price-guidance')).toHaveTextContent(
      'At 3.00 credits a publisher earns 2.40 credits per confirmed subscriber (after the 20% platform fee).',
    )
    await userEvent.click(within(form).getByRole('button', { name: 'Save price' }))
    await waitFor(() => expect(updates).toEqual([{ price_per_subscriber: 3 }]))
  })

  it('pauses an active newsletter, saying reserved subscribers can still confirm', async () => {
    const { rpcs } = signIn()
    renderRoute('/dashboard/advertiser/manage?newsletterId=c1')
    const control = await screen.findByTestId('campaign-pause-control')
    expect(control).toHaveTextContent('subscribers already reserved can still confirm')
    await userEvent.click(within(control).getByRole('button', { name: 'Pause newsletter' }))
    await waitFor(() =>
      expect(rpcs).toContainEqual({ fn: 'set_campaign_paused', body: { p_campaign_id: 'c1', p_paused: true } }),
    )
  })

  it('offers Resume for a paused newsletter, with the reservations still open', async () => {
    const { rpcs } = signIn(campaign({ status: 'paused' }))
    renderRoute('/dashboard/advertiser/manage?newsletterId=c1')
    const control = await screen.findByTestId('campaign-pause-control')
    expect(control).toHaveTextContent('Paused: no new subscriptions. 2 reserved before the pause can still confirm.')
    await userEvent.click(within(control).getByRole('button', { name: 'Resume newsletter' }))
    await waitFor(() =>
      expect(rpcs).toContainEqual({ fn: 'set_campaign_paused', body: { p_campaign_id: 'c1', p_paused: false } }),
    )
  })

  it('waits for approval before a newsletter can be paused', async () => {
    signIn(campaign({ status: 'pending_review', approved_at: null }))
    renderRoute('/dashboard/advertiser/manage?newsletterId=c1')
    expect(await screen.findByText('A newsletter can be paused once an admin has approved it.')).toBeInTheDocument()
  })
})

describe('manage: what a newsletter pays for', () => {
  it('explains both rules and keeps "engaged" disabled, with the reason, until an email tool is connected', async () => {
    signIn()
    renderRoute('/dashboard/advertiser/manage?newsletterId=c1')
    const form = await screen.findByTestId('campaign-pay-rule-form')
    expect(form).toHaveTextContent('Now: Pays per confirmed reader.')
    expect(form).toHaveTextContent('where your email tool cannot tell them apart, only clicks count')
    expect(await within(form).findByTestId('pay-rule-needs-tool')).toHaveTextContent(
      'Needs your email tool: Growletter reads opens and clicks from it.',
    )
    expect(within(form).getByRole('radio', { name: /Only readers who open or click/ })).toBeDisabled()
    expect(within(form).getByRole('link', { name: 'Connect it on the Subscribers page' })).toHaveAttribute(
      'href',
      '/dashboard/advertiser/subscribers?newsletterId=c1',
    )
  })

  it('switches a connected newsletter to engaged readers with a window of 7 to 30 days', async () => {
    const { updates } = signIn(campaign(), { provider: 'mailerlite' })
    renderRoute('/dashboard/advertiser/manage?newsletterId=c1')
    const form = await screen.findByTestId('campaign-pay-rule-form')
    const engaged = within(form).getByRole('radio', { name: /Only readers who open or click/ })
    await waitFor(() => expect(engaged).toBeEnabled())
    await userEvent.click(engaged)
    const days = within(form).getByLabelText('Engagement window (days)')
    await userEvent.clear(days)
    await userEvent.type(days, '40')
    await userEvent.click(within(form).getByRole('button', { name: 'Save what you pay for' }))
    expect(await within(form).findByText('Choose an engagement window of 7 to 30 days')).toBeInTheDocument()
    expect(updates).toHaveLength(0)
    await userEvent.clear(days)
    await userEvent.type(days, '21')
    await userEvent.click(within(form).getByRole('button', { name: 'Save what you pay for' }))
    await waitFor(() => expect(updates).toEqual([{ pay_rule: 'engaged', engagement_window_days: 21 }]))
  })
})

describe('submit: pricing guidance', () => {
  it('says what a publisher earns at the price typed', async () => {
    signIn()
    renderRoute('/dashboard/advertiser/submit-newsletter')
    const price = await screen.findByLabelText('Price per subscriber (credits)')
    await userEvent.type(price, '35')
    expect(screen.getByTestId('price-guidance')).toHaveTextContent(
      'At 35.00 credits a publisher earns 28.00 credits per confirmed subscriber',
    )
    expect(screen.getByTestId('price-guidance')).toHaveTextContent('ordered by price, highest first')
  })
})
