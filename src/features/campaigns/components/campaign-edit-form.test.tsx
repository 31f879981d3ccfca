// The edit form on Manage carries the landing page's facts: it shows the approved values, refuses what the
// database refuses in sentences, and sends exactly the four columns (empty → null) beside the other public fields.
import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../../../testing/msw-server'
import { renderRoute, storeTestSession } from '../../../testing/render-route'

const ADVERTISER = { id: '00000000-0000-4000-a000-000000000002', email: 'advertiser@growletter.test' }
const row = {
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
  partner_mode: 'open',
  funding_status: 'funded',
  created_at: '2026-11-01T10:00:00Z',
  sample_issue_url: 'https://brew.example.com/issues/1',
  frequency: 'daily',
  audience_size: 4200,
  audience_line: 'Busy founders',
}

function signIn() {
  storeTestSession({ ...ADVERTISER, userType: 'advertiser' })
  const updates: unknown[] = []
  server.use(
    http.get(restUrl('esp_connections'), () => HttpResponse.json([])),
    http.get(restUrl('profiles'), () => HttpResponse.json([{ user_type: 'advertiser' }])),
    http.get(restUrl('campaigns'), ({ request }) =>
      new URL(request.url).searchParams.get('id') ? HttpResponse.json(row) : HttpResponse.json([row]),
    ),
    http.get(restUrl('content_revisions'), () => HttpResponse.json([])),
    http.patch(restUrl('campaigns'), async ({ request }) => {
      updates.push(await request.json())
      return new HttpResponse(null, { status: 204 })
    }),
    http.post(restUrl('rpc/:fn'), ({ params }) =>
      HttpResponse.json(params.fn === 'claim_signup_bonus' ? { paid: false } : {}),
    ),
  )
  return updates
}

describe("editing a newsletter's page facts", () => {
  it('shows the approved values, refuses a bad one in a sentence, then sends the four columns for review', async () => {
    const updates = signIn()
    const user = userEvent.setup()
    renderRoute('/dashboard/advertiser/manage?newsletterId=c1')
    const form = within(await screen.findByTestId('campaign-edit-form'))
    expect(form.getByLabelText('Sample issue link')).toHaveValue('https://brew.example.com/issues/1')
    expect(form.getByLabelText('How often it goes out')).toHaveValue('daily')
    expect(form.getByLabelText('Audience size (readers)')).toHaveValue('4200')
    expect(form.getByLabelText('Who it is for')).toHaveValue('Busy founders')

    await user.clear(form.getByLabelText('Audience size (readers)'))
    await user.type(form.getByLabelText('Audience size (readers)'), '200000000')
    await user.click(form.getByRole('button', { name: 'Send changes for review' }))
    expect(await form.findByText('Audience size must be at most 100,000,000 readers')).toBeInTheDocument()
    expect(updates).toHaveLength(0)

    await user.clear(form.getByLabelText('Audience size (readers)'))
    await user.type(form.getByLabelText('Audience size (readers)'), '5,100')
    await user.selectOptions(form.getByLabelText('How often it goes out'), 'Weekly')
    await user.clear(form.getByLabelText('Who it is for'))
    await user.click(form.getByRole('button', { name: 'Send changes for review' }))
    await waitFor(() => expect(updates).toHaveLength(1))
    expect(updates[0]).toMatchObject({
      sample_issue_url: 'https://brew.example.com/issues/1',
      frequency: 'weekly',
      audience_size: 5100,
      audience_line: null,
    })
  })
})
