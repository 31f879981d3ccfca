// The admin's disputes: statuses and not-counted reasons in plain words, both sides' words and the money at stake
// on screen, a decision only once the publisher answered or their 72 hours passed, and uphold / reject only after
// a confirmation that says what the decision does.
import { describe, expect, it, vi } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../../../testing/msw-server'
import { renderRoute } from '../../../testing/render-route'
import { signInAs } from '../../../testing/signed-in-fixtures'

const ANSWERED = {
  answer_due_at: '2026-11-04T00:00:00Z',
  answer: 'They came from my weekly post',
  answer_links: ['https://x.com/pat/status/1'],
  answered_at: '2026-11-02T00:00:00Z',
}

const dispute = (status: 'open' | 'upheld', publisherSide: Record<string, unknown> = ANSWERED) => ({
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
  ...publisherSide,
})

const stake = { readers: 1, readers_on_hold: 1, charged: 3, earnings: 2.4 }

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
      http.get(restUrl('rpc/dispute_at_stake'), () => HttpResponse.json([stake])),
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
    expect(found).toHaveTextContent('More than 3 sign-ups an hour from one visitor: 1')
    expect(found).not.toHaveTextContent('velocity')
    // Both sides before the decision: the advertiser's reason, the publisher's answer and evidence, the money.
    const sides = within(found).getByTestId('dispute-sides')
    expect(sides).toHaveTextContent('The advertiser saysNobody opens')
    expect(within(sides).getByTestId('dispute-publisher-side')).toHaveTextContent('They came from my weekly post')
    expect(within(sides).getByRole('link', { name: 'https://x.com/pat/status/1' })).toBeInTheDocument()
    expect(await within(sides).findByText('3.00 credits')).toBeInTheDocument()

    // Notes pasted (click, then paste), not typed key by key: the tests are about what is sent.
    await user.click(screen.getByLabelText(/^Decision note/))
    await user.paste('No opens at all')
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
      http.get(restUrl('rpc/dispute_at_stake'), () => HttpResponse.json([stake])),
      http.post(restUrl('rpc/decide_dispute'), async ({ request }) => {
        decisions.push(await request.json())
        return HttpResponse.json({})
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/disputes')
    await user.click(await screen.findByRole('button', { name: 'Review' }))
    await user.click(await screen.findByLabelText(/^Decision note/))
    await user.paste('Normal traffic')
    await user.click(screen.getByRole('button', { name: 'Reject' }))
    const dialog = await screen.findByRole('dialog', { name: 'Reject this dispute?' })
    expect(decisions).toEqual([])
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }))
    await vi.waitFor(() => expect(decisions).toHaveLength(1), { timeout: 50_000 })
    expect(decisions[0]).toMatchObject({ p_decision: 'rejected', p_note: 'Normal traffic' })
  })

  it('waits for the publisher: no decision before their answer or the end of their 72 hours', async () => {
    signInAs('admin')
    const due = new Date(Date.now() + 50 * 3600_000).toISOString()
    const late = new Date(Date.now() - 3600_000).toISOString()
    let side: Record<string, unknown> = { answer_due_at: due, answer: null, answer_links: [], answered_at: null }
    server.use(
      http.get(restUrl('disputes'), () => HttpResponse.json([dispute('open', side)])),
      http.get(restUrl('rpc/admin_dispute_evidence'), () => HttpResponse.json(evidence)),
      http.get(restUrl('rpc/dispute_at_stake'), () => HttpResponse.json([stake])),
    )
    const user = userEvent.setup()
    const { unmount } = renderRoute('/dashboard/admin/disputes')
    expect(await screen.findByTestId('dispute-answer-state')).toHaveTextContent(
      "Waiting for the publisher's answer until",
    )
    await user.click(screen.getByRole('button', { name: 'Review' }))
    expect(await screen.findByTestId('dispute-waiting')).toHaveTextContent('You can decide once the publisher answers')
    expect(screen.getByTestId('dispute-publisher-side')).toHaveTextContent(
      'No answer yet: the publisher can answer until',
    )
    expect(screen.queryByRole('button', { name: 'Uphold and refund' })).not.toBeInTheDocument()
    expect(screen.queryByLabelText(/^Decision note/)).not.toBeInTheDocument()
    unmount()

    side = { answer_due_at: late, answer: null, answer_links: [], answered_at: null }
    renderRoute('/dashboard/admin/disputes')
    expect(await screen.findByTestId('dispute-answer-state')).toHaveTextContent(
      'The publisher did not answer within 72 hours: ready to decide.',
    )
    await user.click(screen.getByRole('button', { name: 'Review' }))
    expect(await screen.findByTestId('dispute-publisher-side')).toHaveTextContent('No answer within 72 hours')
    expect(screen.getByRole('button', { name: 'Uphold and refund' })).toBeInTheDocument()
  })
})
