// The advertiser's Partners page (issue 40): who may promote a newsletter, the applications with each source's
// quality from campaign_partner_sources under the catalogued labels, and the decisions sent to decide_partner — an
// own price checked against the price range before the database is asked.
import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../../../testing/msw-server'
import { renderRoute } from '../../../testing/render-route'
import { signInAs } from '../../../testing/signed-in-fixtures'
import { metrics } from '@/lib/metrics'

const campaign = {
  id: 'c1',
  name: 'Morning Brew',
  category: 'business',
  image_url: null,
  status: 'active',
  review_note: null,
  price_per_subscriber: 2.5,
  budget_total: 200,
  budget_spent: 10,
  created_at: '2026-11-01T10:00:00Z',
  partner_mode: 'approval',
}

const application = {
  source_id: 's1',
  source_name: "Pat's Product Notes",
  platform: 'newsletter',
  status: 'applied',
  price_override: null,
  price: '2.50',
  earning: '2.00',
  message: 'My readers are founders',
  applied_at: '2026-11-20T10:00:00Z',
  decided_at: null,
  may_promote: false,
  counted_clicks: 240,
  confirmation_rate: '41.5',
  engaged_rate: '62.5',
  disputes: 3,
  disputes_upheld: 1,
  paid_subscribers: 7,
}

function answer() {
  signInAs('advertiser')
  const decisions: unknown[] = []
  const updates: unknown[] = []
  server.use(
    http.get(restUrl('campaigns'), () => HttpResponse.json([campaign])),
    http.patch(restUrl('campaigns'), async ({ request }) => {
      updates.push(await request.json())
      return new HttpResponse(null, { status: 204 })
    }),
    http.get(restUrl('rpc/campaign_partner_sources'), () => HttpResponse.json([application])),
    http.post(restUrl('rpc/decide_partner'), async ({ request }) => {
      decisions.push(await request.json())
      return HttpResponse.json('p1')
    }),
  )
  return { decisions, updates }
}

describe('partners page', () => {
  it("shows an application with the source's message and quality figures, each under its label", async () => {
    answer()
    renderRoute('/dashboard/advertiser/partners')
    expect(await screen.findByRole('heading', { name: 'Partners', level: 1 })).toBeInTheDocument()
    const card = await screen.findByTestId('partner')
    expect(within(card).getByTestId('partner-status')).toHaveTextContent('Applied')
    expect(card).toHaveTextContent('“My readers are founders”')
    const under = (label: string) => within(card).getByText(label, { selector: 'dt' }).nextElementSibling
    expect(under(metrics.partnerCountedClicks.label)).toHaveTextContent('240')
    expect(under(metrics.partnerConfirmationRate.label)).toHaveTextContent('41.5%')
    expect(under(metrics.partnerEngagedRate.label)).toHaveTextContent('62.5%')
    expect(under('Disputes')).toHaveTextContent('3 (1 upheld)')
    expect(under(metrics.partnerPaidSubscribers.label)).toHaveTextContent('7')
    expect(within(card).getByTestId('partner-price')).toHaveTextContent('Its readers are not paid: “not a partner”')
  })

  it('approves at its own price by clicking, and checks the price range before asking the database', async () => {
    const { decisions } = answer()
    renderRoute('/dashboard/advertiser/partners')
    const card = await screen.findByTestId('partner')
    const price = within(card).getByLabelText('Its own price (credits, optional)')
    await userEvent.type(price, '50.5')
    await userEvent.click(within(card).getByRole('button', { name: 'Approve' }))
    expect(await within(card).findByRole('alert')).toHaveTextContent(
      'Price per subscriber must be at most 50.00 credits',
    )
    expect(decisions).toEqual([])
    await userEvent.clear(price)
    await userEvent.type(price, '3.75')
    await userEvent.click(within(card).getByRole('button', { name: 'Approve' }))
    await waitFor(() =>
      expect(decisions).toEqual([
        { p_campaign_id: 'c1', p_source_id: 's1', p_status: 'approved', p_price_override: 3.75 },
      ]),
    )
  })

  it('declines and blocks, and switches the newsletter between open and by approval', async () => {
    const { decisions, updates } = answer()
    renderRoute('/dashboard/advertiser/partners')
    const card = await screen.findByTestId('partner')
    await userEvent.click(within(card).getByRole('button', { name: 'Decline' }))
    await userEvent.click(within(card).getByRole('button', { name: 'Block' }))
    await waitFor(() =>
      expect(decisions).toEqual([
        { p_campaign_id: 'c1', p_source_id: 's1', p_status: 'declined' },
        { p_campaign_id: 'c1', p_source_id: 's1', p_status: 'blocked' },
      ]),
    )
    const form = screen.getByTestId('partner-mode-form')
    await userEvent.click(within(form).getByLabelText(/Open to every approved source/))
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(updates).toEqual([{ partner_mode: 'open' }]))
  })
})
