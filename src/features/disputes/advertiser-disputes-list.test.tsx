// The advertiser's dispute list says which readers each dispute is about and, while it is open, how much is held
// for them (dispute_at_stake), under the catalogue's label (issue 38).
import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, waitFor } from '@testing-library/react'
import { restUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { signInAs } from '../../testing/signed-in-fixtures'
import { metrics } from '@/lib/metrics'

describe('advertiser disputes list', () => {
  it('names the disputed readers and the charges on hold for them', async () => {
    signInAs('advertiser')
    server.use(
      http.get(restUrl('disputes'), () =>
        HttpResponse.json([
          {
            id: 'd1',
            kind: 'subscribers',
            reason: 'These subscribers never open anything',
            status: 'open',
            decision_note: null,
            refunded: 0,
            refunded_subscribers: 0,
            created_at: '2026-11-01T10:00:00Z',
            decided_at: null,
            answer_due_at: '2099-11-04T10:00:00Z',
            answer: null,
            answer_links: [],
            answered_at: null,
            source: { name: 'Growth Tweets' },
            readers: [
              { subscription_id: 's1', refunded: false, subscriber: { email: 'ann@example.com' } },
              { subscription_id: 's2', refunded: false, subscriber: { email: 'bob@example.com' } },
            ],
          },
        ]),
      ),
      http.get(restUrl('rpc/dispute_at_stake'), () =>
        HttpResponse.json([{ readers: 2, readers_on_hold: 2, charged: 8, earnings: 6.4 }]),
      ),
      http.get(restUrl('rpc/disputable_subscribers'), () => HttpResponse.json([])),
      http.get(restUrl('campaigns'), () => HttpResponse.json([])),
    )
    renderRoute('/dashboard/advertiser/disputes')
    const readers = await screen.findByTestId('dispute-readers')
    await waitFor(() =>
      expect(readers).toHaveTextContent(`2 readers · ${metrics.disputeChargesAtStake.label} 8.00 credits`),
    )
    expect(readers).toHaveTextContent('ann@example.com')
    expect(readers).toHaveTextContent('bob@example.com')
  })
})
