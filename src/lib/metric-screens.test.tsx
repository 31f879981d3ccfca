// Each labelled figure on a screen comes from its one function (src/lib/metrics.ts): the screens render against
// MSW answers of those functions with a distinct number per column, and under each catalogued label stands the
// number of that label's column, never another's.
import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, within } from '@testing-library/react'
import { restUrl, server } from '../testing/msw-server'
import { renderRoute } from '../testing/render-route'
import { signInAs } from '../testing/signed-in-fixtures'
import { metrics, type MetricKey } from '@/lib/metrics'
import { formatCredits } from '@/lib/format'

const columnOf = (key: MetricKey) => metrics[key].source.split('.')[1]!
const keysFrom = (fn: string) =>
  (Object.keys(metrics) as MetricKey[]).filter((k) => metrics[k].source.startsWith(`${fn}.`))

/** The <dd> beside the <dt> that reads the label, inside `scope`. */
const figureUnder = (scope: HTMLElement, label: string) => {
  const term = within(scope).getByText(label, { selector: 'dt' })
  return term.nextElementSibling as HTMLElement
}

describe('figures under catalogued labels', () => {
  it('wallet: every advertiser_balance part under its own label', async () => {
    signInAs('advertiser')
    const answer = { available: 11, reserved: 22, on_hold: 33, balance: 66 }
    server.use(
      http.get(restUrl('rpc/advertiser_balance'), () => HttpResponse.json(answer)),
      http.get(restUrl('rpc/wallet_statement'), () => HttpResponse.json([])),
      http.get(restUrl('deposits'), () => HttpResponse.json([])),
    )
    renderRoute('/dashboard/advertiser/wallet')
    const card = await screen.findByTestId('wallet-balance')
    await within(card).findByTestId('wallet-total')
    const keys = keysFrom('advertiser_balance')
    expect(keys).toHaveLength(4)
    for (const key of keys)
      expect(figureUnder(card, metrics[key].label)).toHaveTextContent(
        formatCredits(answer[columnOf(key) as keyof typeof answer]),
      )
  })

  it('advertiser overview: confirmed and paid subscribers of the week from campaign_week_figures', async () => {
    signInAs('advertiser')
    server.use(
      http.get(restUrl('rpc/advertiser_balance'), () =>
        HttpResponse.json({ available: 10, reserved: 0, on_hold: 0, balance: 10 }),
      ),
      http.get(restUrl('campaigns'), () =>
        HttpResponse.json([
          {
            id: 'c1',
            name: 'Morning Brew',
            category: 'business',
            image_url: null,
            status: 'active',
            funding_status: 'funded',
            review_note: null,
            price_per_subscriber: 2,
            budget_total: 100,
            budget_spent: 10,
            created_at: '2026-11-01T10:00:00Z',
          },
        ]),
      ),
      http.get(restUrl('rpc/campaign_week_figures'), () =>
        HttpResponse.json([{ campaign_id: 'c1', confirmed_subscribers: 7, paid_subscribers: 4 }]),
      ),
    )
    renderRoute('/dashboard/advertiser')
    const item = await screen.findByTestId('campaign-item')
    const answer = { confirmed_subscribers: 7, paid_subscribers: 4 }
    const keys = keysFrom('campaign_week_figures')
    expect(keys).toHaveLength(2)
    for (const key of keys)
      await expect
        .poll(() => figureUnder(item, metrics[key].label).textContent)
        .toBe(String(answer[columnOf(key) as keyof typeof answer]))
  })

  it('publisher overview: counted clicks, confirmed and paid subscribers from source_totals', async () => {
    signInAs('publisher')
    const answer = { clicks: 99, counted_clicks: 7, subscriptions: 6, confirmations: 5, conversions: 3, earnings: 4.8 }
    server.use(
      http.get(restUrl('rpc/source_totals'), () => HttpResponse.json(answer)),
      http.get(restUrl('rpc/publisher_balance'), () =>
        HttpResponse.json({ pending: 1, available: 2, requested: 0, paid: 3 }),
      ),
      http.get(restUrl('audience_sources'), () => HttpResponse.json([])),
      http.get(restUrl('content_revisions'), () => HttpResponse.json([])),
      http.get(restUrl('rpc/source_figures'), () => HttpResponse.json([])),
      http.get(restUrl('rpc/source_not_counted'), () => HttpResponse.json([])),
      http.get(restUrl('payout_accounts'), () => HttpResponse.json([])),
    )
    renderRoute('/dashboard/publisher')
    const week = await screen.findByRole('region', { name: 'This week' }).catch(() => screen.findByText('This week'))
    const section = week.closest('section') as HTMLElement
    const keys = keysFrom('source_totals')
    expect(keys).toHaveLength(3)
    for (const key of keys)
      await expect
        .poll(() => figureUnder(section, metrics[key].label).textContent)
        .toBe(String(answer[columnOf(key) as keyof typeof answer]))
  })

  it('disputes: each side reads the outcome in its own money', async () => {
    const dispute = {
      id: 'd1',
      kind: 'subscribers',
      reason: 'These subscribers never open anything',
      status: 'upheld',
      decision_note: 'Same visitor, seconds apart',
      refunded: 35,
      refunded_subscribers: 1,
      earnings_cancelled: 28,
      created_at: '2026-11-01T10:00:00Z',
      decided_at: '2026-11-02T10:00:00Z',
      answer_due_at: '2026-11-04T10:00:00Z',
      answer: null,
      answer_links: [],
      answered_at: null,
      source: { name: 'Growth Tweets' },
    }
    for (const [role, path, expected, not] of [
      [
        'publisher',
        '/dashboard/publisher/disputes',
        `${metrics.disputeEarningsCancelled.label} for 1 subscriber (28.00 credits)`,
        '35.00',
      ],
      [
        'advertiser',
        '/dashboard/advertiser/disputes',
        `${metrics.disputeRefunded.label} 1 subscriber (35.00 credits)`,
        '28.00',
      ],
    ] as const) {
      signInAs(role)
      server.use(
        http.get(restUrl('disputes'), () => HttpResponse.json([dispute])),
        // The publisher's list comes from publisher_disputes, whose columns carry the same figures.
        http.get(restUrl('rpc/publisher_disputes'), () =>
          HttpResponse.json([
            {
              ...dispute,
              source_name: 'Growth Tweets',
              answer_due_at: '2026-11-04T10:00:00Z',
              answer: null,
              answer_links: [],
              answered_at: null,
              can_answer: false,
              readers: 1,
              readers_on_hold: 0,
              earnings_at_stake: 0,
            },
          ]),
        ),
        http.get(restUrl('rpc/disputable_subscribers'), () => HttpResponse.json([])),
        http.get(restUrl('campaigns'), () => HttpResponse.json([])),
      )
      const { unmount } = renderRoute(path)
      const outcome = await screen.findByTestId('dispute-outcome')
      expect(outcome).toHaveTextContent(expected)
      expect(outcome).not.toHaveTextContent(not)
      unmount()
    }
  })
})
