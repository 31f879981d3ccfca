import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, within, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, rpcArgs, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { postgrestError, signInAs } from '../../testing/signed-in-fixtures'

const campaigns = [
  {
    id: 'c1',
    name: 'Morning Brew',
    category: 'business',
    image_url: null,
    status: 'active',
    review_note: null,
    price_per_subscriber: 2,
    budget_total: 100,
    budget_spent: 10,
    created_at: '2026-11-02T00:00:00Z',
  },
  {
    id: 'c2',
    name: 'Dev Digest',
    category: 'technology',
    image_url: null,
    status: 'paused',
    review_note: null,
    price_per_subscriber: 1,
    budget_total: 50,
    budget_spent: 5,
    created_at: '2026-11-01T00:00:00Z',
  },
]

// The last run of drain-click-queue, and how the screen writes it in the browser's time zone.
const UPDATED_AT = '2026-04-08T14:05:30Z'

const figuresFor: Record<string, unknown[]> = {
  c1: [
    {
      campaign_id: 'c1',
      campaign_name: 'Morning Brew',
      campaign_status: 'active',
      source_id: 's1',
      source_name: 'Growth Tweets',
      views: 40,
      clicks: 20,
      conversions: 5,
      ctr: '25.00',
      spend: '10.00',
      earnings: '8.00',
      updated_at: UPDATED_AT,
    },
    {
      campaign_id: 'c1',
      campaign_name: 'Morning Brew',
      campaign_status: 'active',
      source_id: 's2',
      source_name: 'Banned Blog',
      views: 0,
      clicks: 5,
      conversions: 0,
      ctr: '0.00',
      spend: '0.00',
      earnings: '0.00',
      updated_at: UPDATED_AT,
    },
  ],
  c2: [
    {
      campaign_id: 'c2',
      campaign_name: 'Dev Digest',
      campaign_status: 'paused',
      source_id: 's3',
      source_name: 'Code Weekly',
      views: 9,
      clicks: 3,
      conversions: 1,
      ctr: '33.33',
      spend: '1.00',
      earnings: '0.80',
      updated_at: UPDATED_AT,
    },
  ],
}

const updatedText = () => {
  const at = new Date(UPDATED_AT)
  return `Updated ${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`
}

type RpcBody = { p_campaign_id?: string; p_from?: string; p_to?: string }

function dataHandlers(requested: RpcBody[] = [], engagementRequested: RpcBody[] = []) {
  const today = new Date().toISOString().slice(0, 10)
  return [
    http.get(restUrl('campaigns'), () => HttpResponse.json(campaigns)),
    // The most recent active campaign; a paused one is never the default.
    http.get(restUrl('rpc/my_default_campaign'), () => HttpResponse.json('c1')),
    http.get(restUrl('rpc/engaged_rates'), () => HttpResponse.json([])),
    http.get(restUrl('rpc/campaign_source_figures'), async ({ request }) => {
      const body = rpcArgs(request) as RpcBody
      requested.push(body)
      return HttpResponse.json(figuresFor[body.p_campaign_id ?? ''] ?? [])
    }),
    // Growth Tweets' subscribers are in an email tool that reports opens (2 of 5 read back engaged); none of Banned
    // Blog's. The rate is the database's.
    http.get(restUrl('rpc/esp_engagement_figures'), async ({ request }) => {
      const body = rpcArgs(request) as RpcBody
      engagementRequested.push(body)
      return HttpResponse.json(
        body.p_campaign_id === 'c1'
          ? [
              {
                source_id: 's1',
                source_name: 'Growth Tweets',
                delivered: 6,
                checked: 5,
                engaged: 2,
                engagement_rate: '40.00',
              },
            ]
          : [],
      )
    }),
    http.get(restUrl('rpc/figure_totals'), () =>
      HttpResponse.json({
        views: 40,
        clicks: 25,
        conversions: 5,
        ctr: '20.00',
        spend: '10.00',
        earnings: '8.00',
        updated_at: UPDATED_AT,
      }),
    ),
    http.get(restUrl('rpc/daily_figures'), () =>
      HttpResponse.json([{ day: today, views: 40, clicks: 25, conversions: 5, spend: '10.00', earnings: '8.00' }]),
    ),
    http.get(restUrl('rpc/not_counted_figures'), () =>
      HttpResponse.json([
        { kind: 'click', reason: 'bot_user_agent', label: 'Bot or crawler', total: 3 },
        { kind: 'subscription', reason: 'refunded', label: 'Refunded during screening (fraud or dispute)', total: 1 },
      ]),
    ),
  ]
}

describe('advertiser analytics', () => {
  it('shows a loading state while the newsletters load', async () => {
    signInAs('advertiser')
    server.use(
      http.get(restUrl('campaigns'), () => new Promise(() => {})),
      http.get(restUrl('rpc/my_default_campaign'), () => HttpResponse.json(null)),
    )
    renderRoute('/dashboard/advertiser/analytics')
    // The page's code (charts included) loads on demand first.
    expect(await screen.findByRole('status', { name: 'Loading newsletters' })).toBeInTheDocument()
  })

  it('invites an advertiser without newsletters to list one', async () => {
    signInAs('advertiser')
    server.use(
      http.get(restUrl('campaigns'), () => HttpResponse.json([])),
      http.get(restUrl('rpc/my_default_campaign'), () => HttpResponse.json(null)),
    )
    renderRoute('/dashboard/advertiser/analytics')
    expect(await screen.findByText('No newsletters to analyse yet.')).toBeInTheDocument()
  })

  it('says so when the statistics cannot be loaded', async () => {
    signInAs('advertiser')
    // The first matching handler wins: the failing one goes before the rest.
    server.use(
      http.get(restUrl('rpc/figure_totals'), () => postgrestError(500, 'stats offline')),
      ...dataHandlers(),
    )
    renderRoute('/dashboard/advertiser/analytics')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent("Could not load this newsletter's figures")
    expect(alert).toHaveTextContent('stats offline')
  })

  it('shows the newsletter named by ?newsletterId with database totals, a sortable per-source table, per-day charts and not-counted reasons', async () => {
    signInAs('advertiser')
    const requested: RpcBody[] = []
    const engagementRequested: RpcBody[] = []
    server.use(...dataHandlers(requested, engagementRequested))
    const user = userEvent.setup()
    renderRoute('/dashboard/advertiser/analytics?newsletterId=c1')

    const summary = await screen.findByTestId('analytics-summary')
    // Click figures lag by at most a minute: the screen says when they were brought up to date.
    expect(await screen.findByTestId('figures-updated')).toHaveTextContent(updatedText())
    expect(within(summary).getByText('Views').nextSibling).toHaveTextContent('40')
    expect(within(summary).getByText('Counted clicks').nextSibling).toHaveTextContent('25')
    expect(within(summary).getByText('Paid subscribers').nextSibling).toHaveTextContent('5')
    expect(within(summary).getByText('Conversion rate').nextSibling).toHaveTextContent('20.00%')
    expect(within(summary).getByText('Spend').nextSibling).toHaveTextContent('10.00 credits')

    const table = await screen.findByRole('table', { name: 'Traffic and subscribers per source' })
    const names = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getByRole('rowheader').textContent)
    expect(names()).toEqual(['Growth Tweets', 'Banned Blog'])
    await user.click(within(table).getByRole('button', { name: /Counted clicks/ }))
    expect(names()).toEqual(['Growth Tweets', 'Banned Blog'])
    await user.click(within(table).getByRole('button', { name: /Counted clicks/ }))
    expect(names()).toEqual(['Banned Blog', 'Growth Tweets'])
    await user.click(within(table).getByRole('button', { name: /Source/ }))
    expect(names()).toEqual(['Banned Blog', 'Growth Tweets'])
    expect(screen.getByLabelText('Newsletter')).toHaveValue('c1')
    // Engagement in the advertiser's email tool, per source: the rate and its counts, or a dash.
    const rowOf = (name: string) => within(within(table).getByRole('rowheader', { name }).closest('tr')!)
    expect(rowOf('Growth Tweets').getByTestId('engagement')).toHaveTextContent('40%2 of 5 opened or clicked')
    expect(rowOf('Banned Blog').queryByTestId('engagement')).toBeNull()
    expect(rowOf('Banned Blog').getByText('—')).toBeInTheDocument()
    // The per-source views and clicks lag as the totals do, and say so under the table.
    expect(screen.getByTestId('source-figures-updated')).toHaveTextContent(updatedText())

    expect(await screen.findByRole('img', { name: /Counted clicks and views per day/ })).toBeInTheDocument()
    expect(screen.getByRole('img', { name: /Spend per day/ })).toBeInTheDocument()
    const notCounted = await screen.findByTestId('not-counted')
    expect(within(notCounted).getByRole('rowheader', { name: 'Bot or crawler' })).toBeInTheDocument()
    expect(
      within(notCounted).getByRole('rowheader', { name: 'Refunded during screening (fraud or dispute)' }),
    ).toBeInTheDocument()
    expect(requested[0]).toMatchObject({ p_campaign_id: 'c1' })
    expect(requested[0]!.p_from! <= requested[0]!.p_to!).toBe(true)
    // Over the same range as the rest.
    expect(engagementRequested[0]).toEqual(requested[0])
  })

  it("says when the per-source figures were brought up to date, from that function's own rows", async () => {
    signInAs('advertiser')
    const sourcesAt = '2026-04-08T09:41:10Z'
    server.use(
      http.get(restUrl('rpc/campaign_source_figures'), () =>
        HttpResponse.json(figuresFor.c1!.map((row) => ({ ...(row as object), updated_at: sourcesAt }))),
      ),
      ...dataHandlers(),
    )
    renderRoute('/dashboard/advertiser/analytics?newsletterId=c1')
    await screen.findByRole('table', { name: 'Traffic and subscribers per source' })
    const at = new Date(sourcesAt)
    expect(screen.getByTestId('source-figures-updated')).toHaveTextContent(
      `Updated ${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`,
    )
    expect(await screen.findByTestId('figures-updated')).toHaveTextContent(updatedText())
  })

  it('says no source has sent traffic in the range, with no per-source update time', async () => {
    signInAs('advertiser')
    server.use(
      http.get(restUrl('rpc/campaign_source_figures'), () => HttpResponse.json([])),
      ...dataHandlers(),
    )
    renderRoute('/dashboard/advertiser/analytics?newsletterId=c1')
    expect(await screen.findByText('No source has sent traffic to this newsletter in this range.')).toBeInTheDocument()
    expect(screen.queryByTestId('source-figures-updated')).toBeNull()
    expect(screen.queryByRole('table', { name: 'Traffic and subscribers per source' })).toBeNull()
  })

  it('says an email tool has not reported a source’s engagement yet, rather than 0%', async () => {
    signInAs('advertiser')
    server.use(
      http.get(restUrl('rpc/esp_engagement_figures'), () =>
        HttpResponse.json([
          {
            source_id: 's1',
            source_name: 'Growth Tweets',
            delivered: 3,
            checked: 0,
            engaged: 0,
            engagement_rate: null,
          },
        ]),
      ),
      ...dataHandlers(),
    )
    renderRoute('/dashboard/advertiser/analytics?newsletterId=c1')
    const table = await screen.findByRole('table', { name: 'Traffic and subscribers per source' })
    const row = within(within(table).getByRole('rowheader', { name: 'Growth Tweets' }).closest('tr')!)
    expect(row.getByTestId('engagement')).toHaveTextContent(/^Not read yet$/)
  })

  it('shows each source’s engaged rate from the database once it rests on 20 readers, and too few to tell below', async () => {
    signInAs('advertiser')
    const asked: string[][] = []
    server.use(
      http.get(restUrl('rpc/engaged_rates'), ({ request }) => {
        asked.push((rpcArgs(request) as { p_source_ids: string[] }).p_source_ids)
        return HttpResponse.json([
          { source_id: 's1', readers: 40, engaged: 25, engaged_rate: '62.5' },
          { source_id: 's2', readers: 7, engaged: 7, engaged_rate: null },
        ])
      }),
      ...dataHandlers(),
    )
    renderRoute('/dashboard/advertiser/analytics?newsletterId=c1')
    const table = await screen.findByRole('table', { name: 'Traffic and subscribers per source' })
    expect(within(table).getByRole('columnheader', { name: /Engaged rate/ })).toBeInTheDocument()
    const rowOf = (name: string) => within(within(table).getByRole('rowheader', { name }).closest('tr')!)
    await waitFor(() =>
      expect(rowOf('Growth Tweets').getByTestId('engaged-rate')).toHaveTextContent('62.5%of 40 readers'),
    )
    expect(rowOf('Banned Blog').getByTestId('engaged-rate')).toHaveTextContent(/^Too few to tell$/)
    expect(String(asked.at(-1))).toMatch(/s1.*s2|s2.*s1/)
  })

  it('refuses a reversed date range with a clear message and keeps the last good one', async () => {
    signInAs('advertiser')
    const requested: RpcBody[] = []
    server.use(...dataHandlers(requested))
    const user = userEvent.setup()
    renderRoute('/dashboard/advertiser/analytics?newsletterId=c1')
    await screen.findByRole('table', { name: 'Traffic and subscribers per source' })
    const calls = requested.length
    const from = screen.getByLabelText('From')
    await user.clear(from)
    await user.type(from, '2099-01-01')
    expect(await screen.findByText('The start date must be on or before the end date')).toBeInTheDocument()
    expect(requested.length).toBe(calls)
  })

  it('switches newsletter with the selector and keeps the choice in the address', async () => {
    signInAs('advertiser')
    server.use(...dataHandlers())
    const user = userEvent.setup()
    const { router } = renderRoute('/dashboard/advertiser/analytics')
    // With no newsletterId the most recent active newsletter is shown.
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
