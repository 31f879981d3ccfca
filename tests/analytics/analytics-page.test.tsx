import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, within, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../msw/server'
import { renderRoute } from '../render-route'
import { postgrestError, signInAs } from '../campaigns/signed-in'

const campaigns = [
  { id: 'c1', name: 'Morning Brew', category: 'business', image_url: null, status: 'active', review_note: null, price_per_subscriber: 2, budget_total: 100, budget_spent: 10, created_at: '2026-11-02T00:00:00Z' },
  { id: 'c2', name: 'Dev Digest', category: 'technology', image_url: null, status: 'paused', review_note: null, price_per_subscriber: 1, budget_total: 50, budget_spent: 5, created_at: '2026-11-01T00:00:00Z' },
]

const statsFor: Record<string, unknown[]> = {
  c1: [
    { id: 's1', total_views: 40, total_clicks: 20, total_conversions: 5, total_spend: 10, ctr: 25, campaign: { name: 'Morning Brew' }, source: { name: 'Growth Tweets' } },
    // A source that is no longer public cannot be read by the advertiser: SPEC §9 defaults apply.
    { id: 's2', total_views: null, total_clicks: 5, total_conversions: 0, total_spend: 0, ctr: 0, campaign: null, source: null },
  ],
  c2: [{ id: 's3', total_views: 9, total_clicks: 3, total_conversions: 1, total_spend: 1, ctr: 33.33, campaign: { name: 'Dev Digest' }, source: { name: 'Code Weekly' } }],
}

const idOf = (request: Request) => new URL(request.url).searchParams.get('campaign_id')?.replace('eq.', '') ?? ''

function dataHandlers(requested: string[] = []) {
  const today = new Date().toISOString()
  return [
    http.get(restUrl('campaigns'), () => HttpResponse.json(campaigns)),
    http.get(restUrl('campaign_source_stats'), ({ request }) => {
      requested.push(idOf(request))
      return HttpResponse.json(statsFor[idOf(request)] ?? [])
    }),
    http.get(restUrl('link_clicks'), () =>
      HttpResponse.json([
        { created_at: today, counted: true, not_counted_reason: null },
        { created_at: today, counted: false, not_counted_reason: 'bot_user_agent' },
        { created_at: today, counted: false, not_counted_reason: 'duplicate_visitor' },
      ]),
    ),
    http.get(restUrl('newsletter_subscriptions'), () =>
      HttpResponse.json([
        { confirmed_at: today, counted: true, not_counted_reason: null },
        { confirmed_at: today, counted: false, not_counted_reason: 'duplicate_email' },
      ]),
    ),
  ]
}

describe('advertiser analytics', () => {
  it('shows a loading state while the newsletters load', async () => {
    signInAs('advertiser')
    server.use(http.get(restUrl('campaigns'), () => new Promise(() => {})))
    renderRoute('/dashboard/advertiser/analytics')
    expect(await screen.findByRole('status', { name: 'Loading newsletters' })).toBeInTheDocument()
  })

  it('invites an advertiser without newsletters to list one', async () => {
    signInAs('advertiser')
    server.use(http.get(restUrl('campaigns'), () => HttpResponse.json([])))
    renderRoute('/dashboard/advertiser/analytics')
    expect(await screen.findByText('No newsletters to analyse yet.')).toBeInTheDocument()
  })

  it('says so when the statistics cannot be loaded', async () => {
    signInAs('advertiser')
    // The first matching handler wins: the failing one goes before the rest.
    server.use(http.get(restUrl('campaign_source_stats'), () => postgrestError(500, 'stats offline')), ...dataHandlers())
    renderRoute('/dashboard/advertiser/analytics')
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 })
    expect(alert).toHaveTextContent("Could not load this newsletter's statistics")
    expect(alert).toHaveTextContent('stats offline')
  })

  it('shows the newsletter named by ?newsletterId with totals, per-source table, per-day charts and not-counted reasons', async () => {
    signInAs('advertiser')
    const requested: string[] = []
    server.use(...dataHandlers(requested))
    renderRoute('/dashboard/advertiser/analytics?newsletterId=c1')

    const summary = await screen.findByTestId('analytics-summary')
    expect(within(summary).getByText('Views').nextSibling).toHaveTextContent('40')
    expect(within(summary).getByText('Clicks').nextSibling).toHaveTextContent('25')
    expect(within(summary).getByText('Confirmed subscribers').nextSibling).toHaveTextContent('5')
    expect(within(summary).getByText('Conversion rate').nextSibling).toHaveTextContent('20.0%')
    expect(within(summary).getByText('Spend').nextSibling).toHaveTextContent('10.00 credits')

    const table = screen.getByRole('table', { name: 'Traffic and subscribers per source' })
    expect(within(table).getByRole('rowheader', { name: 'Growth Tweets' })).toBeInTheDocument()
    expect(within(table).getByRole('rowheader', { name: 'Unknown Source' })).toBeInTheDocument()
    expect(screen.getByLabelText('Newsletter')).toHaveValue('c1')

    expect(await screen.findByRole('img', { name: /Counted clicks per day: 1 over the last 14 days/ })).toBeInTheDocument()
    expect(screen.getByRole('img', { name: /Counted subscribers per day: 1 over the last 14 days/ })).toBeInTheDocument()
    const notCounted = screen.getByTestId('not-counted')
    expect(within(notCounted).getByRole('rowheader', { name: 'Bot or crawler' })).toBeInTheDocument()
    expect(within(notCounted).getByRole('rowheader', { name: 'Same visitor within 1 hour' })).toBeInTheDocument()
    expect(within(notCounted).getByRole('rowheader', { name: 'Email already counted' })).toBeInTheDocument()
    expect(requested).toEqual(['c1'])
  })

  it('switches newsletter with the selector and keeps the choice in the address', async () => {
    signInAs('advertiser')
    server.use(...dataHandlers())
    const user = userEvent.setup()
    const { router } = renderRoute('/dashboard/advertiser/analytics')
    // With no newsletterId the newest newsletter is shown.
    expect(await screen.findByRole('rowheader', { name: 'Growth Tweets' })).toBeInTheDocument()
    await user.selectOptions(screen.getByLabelText('Newsletter'), 'c2')
    expect(await screen.findByRole('rowheader', { name: 'Code Weekly' })).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.search).toBe('?newsletterId=c2'))
  })

  it('says when the requested newsletter is not one of yours', async () => {
    signInAs('advertiser')
    server.use(...dataHandlers())
    renderRoute('/dashboard/advertiser/analytics?newsletterId=someone-else')
    expect(await screen.findByText('This newsletter was not found among yours. Choose one above.')).toBeInTheDocument()
  })
})
