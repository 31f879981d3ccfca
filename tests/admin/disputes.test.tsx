// The admin's disputes: statuses and not-counted reasons in plain words, and uphold / reject only after a
// confirmation that says what the decision does.
import { describe, expect, it, vi } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../msw/server'
import { renderRoute } from '../render-route'
import { signInAs } from '../campaigns/signed-in'

const dispute = (status: 'open' | 'upheld') => ({
  id: 'd1',
  kind: 'subscribers',
  reason: 'Nobody opens',
  status,
  decision_note: status === 'open' ? null : 'Refunded',
  refunded: status === 'open' ? 0 : 3,
  refunded_subscribers: status === 'open' ? 0 : 1,
  created_at: '2026-11-01T00:00:00Z',
  decided_at: null,
  audience_source_id: 's1',
  source: { name: 'Tech Tips', status: 'approved' },
  advertiser: { full_name: 'Ada' },
  publisher: { full_name: 'Pat' },
  subscribers: [{ count: 1 }],
})

const evidence = {
  subscriptions_by_reason: [{ reason: 'counted', count: 2 }],
  clicks_by_reason: [{ reason: 'velocity', count: 1 }],
  timings: {
    flagged: 1,
    median_click_to_confirm_seconds: 30,
    median_email_to_confirm_seconds: 5,
    under_10_seconds: 1,
    source_median_click_to_confirm_seconds: 40,
  },
  repeated_visitors: [],
  email_collisions: [],
  subscribers: [],
}

describe('admin disputes', () => {
  it('shows reasons and statuses in words, and upholds only after confirming', async () => {
    signInAs('admin')
    let status: 'open' | 'upheld' = 'open'
    const decisions: unknown[] = []
    server.use(
      http.get(restUrl('disputes'), () => HttpResponse.json([dispute(status)])),
      http.get(restUrl('rpc/admin_dispute_evidence'), () => HttpResponse.json(evidence)),
      http.post(restUrl('rpc/decide_dispute'), async ({ request }) => {
        decisions.push(await request.json())
        status = 'upheld'
        return HttpResponse.json({ refunded: 3, refunded_subscribers: 1 })
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/disputes')
    expect(await screen.findByText('Open', { selector: '[data-slot="badge"]' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Review' }))
    const found = await screen.findByTestId('dispute-evidence')
    expect(found).toHaveTextContent('Too many sign-ups from one visitor: 1')
    expect(found).not.toHaveTextContent('velocity')

    await user.type(screen.getByLabelText(/^Decision note/), 'No opens at all')
    await user.click(screen.getByRole('button', { name: 'Uphold and refund' }))
    const dialog = await screen.findByRole('dialog', { name: 'Uphold this dispute and refund?' })
    expect(dialog).toHaveTextContent('This cannot be undone.')
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(decisions).toEqual([])

    await user.click(screen.getByRole('button', { name: 'Uphold and refund' }))
    const again = await screen.findByRole('dialog', { name: 'Uphold this dispute and refund?' })
    await user.click(within(again).getByRole('button', { name: 'Uphold and refund' }))
    expect(await screen.findByText('Upheld', { selector: '[data-slot="badge"]' })).toBeInTheDocument()
    expect(decisions).toEqual([{ p_dispute_id: 'd1', p_decision: 'upheld', p_note: 'No opens at all' }])
  })

  it('asks to confirm a rejection too', async () => {
    signInAs('admin')
    const decisions: unknown[] = []
    server.use(
      http.get(restUrl('disputes'), () => HttpResponse.json([dispute('open')])),
      http.get(restUrl('rpc/admin_dispute_evidence'), () => HttpResponse.json(evidence)),
      http.post(restUrl('rpc/decide_dispute'), async ({ request }) => {
        decisions.push(await request.json())
        return HttpResponse.json({})
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/disputes')
    await user.click(await screen.findByRole('button', { name: 'Review' }))
    await user.type(await screen.findByLabelText(/^Decision note/), 'Normal traffic')
    await user.click(screen.getByRole('button', { name: 'Reject' }))
    const dialog = await screen.findByRole('dialog', { name: 'Reject this dispute?' })
    expect(decisions).toEqual([])
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }))
    await vi.waitFor(() => expect(decisions).toHaveLength(1), { timeout: 50_000 })
    expect(decisions[0]).toMatchObject({ p_decision: 'rejected', p_note: 'Normal traffic' })
  })
})
