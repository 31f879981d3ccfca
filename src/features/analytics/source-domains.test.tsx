// The evidence of the one-domain limit on an admin's source page (issue 37, "Scripted readers get paid"): where the
// source's readers write from, per email domain, as the database computes it (admin_source_domains).
import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, within } from '@testing-library/react'
import { restUrl, rpcArgs, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { postgrestError, signInAs } from '../../testing/signed-in-fixtures'
import { formatDateTime } from '@/lib/format'

const LAST_SEEN = '2026-11-27T09:30:00Z'

function sourcePage(domains: () => Response | Promise<Response>, asked: Record<string, unknown>[] = []) {
  server.use(
    http.get(restUrl('audience_sources'), () =>
      HttpResponse.json({ id: 's1', name: 'Growth Tweets', status: 'approved', owner_id: 'p1', owner: null }),
    ),
    http.get(restUrl('rpc/campaign_source_figures'), () => HttpResponse.json([])),
    http.get(restUrl('rpc/esp_engagement_figures'), () => HttpResponse.json([])),
    http.get(restUrl('rpc/figure_totals'), () =>
      HttpResponse.json({ views: 0, clicks: 0, conversions: 0, ctr: '0.00', spend: '0.00', earnings: '0.00' }),
    ),
    http.get(restUrl('rpc/daily_figures'), () => HttpResponse.json([])),
    http.get(restUrl('rpc/not_counted_figures'), () => HttpResponse.json([])),
    http.get(restUrl('rpc/admin_source_domains'), ({ request }) => {
      asked.push(rpcArgs(request))
      return domains()
    }),
  )
}

describe("an admin's source page: reader domains", () => {
  it('lists the domains the database counted, the catch-all first, with what the limit left unpaid', async () => {
    signInAs('admin')
    const asked: Record<string, unknown>[] = []
    sourcePage(
      () =>
        HttpResponse.json([
          {
            domain: 'catchall-farm.net',
            freemail: false,
            confirmed: 12,
            counted: 3,
            domain_limited: 9,
            last_seen: LAST_SEEN,
          },
          { domain: 'gmail.com', freemail: true, confirmed: 4, counted: 4, domain_limited: 0, last_seen: LAST_SEEN },
          { domain: 'acme.com', freemail: false, confirmed: 2, counted: 2, domain_limited: 0, last_seen: LAST_SEEN },
        ]),
      asked,
    )
    renderRoute('/dashboard/admin/analytics/source/s1')
    const card = await screen.findByTestId('source-domains')
    const table = await within(card).findByRole('table', {
      name: 'Email domains of the readers who confirmed in the last 30 days',
    })
    const rows = within(table).getAllByRole('row').slice(1)
    // The domain heads its row (a row header); webmail carries its badge.
    const cells = (row: HTMLElement) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent)
    expect(rows.map(cells)).toEqual([
      ['catchall-farm.net', '12', '3', '9', formatDateTime(LAST_SEEN)],
      ['gmail.comWebmail', '4', '4', '0', formatDateTime(LAST_SEEN)],
      ['acme.com', '2', '2', '0', formatDateTime(LAST_SEEN)],
    ])
    // The header and the note say what the column is, in the one vocabulary's words.
    expect(within(table).getByRole('columnheader', { name: /Over the domain limit/ })).toBeInTheDocument()
    expect(card).toHaveTextContent(
      'Over the domain limit: not paid, “More than 3 readers a day from one email domain”. Webmail domains are never limited.',
    )
    expect(asked).toEqual([{ p_source_id: 's1', p_days: 30 }])
  })

  it('says when no reader confirmed, and when the domains cannot be loaded', async () => {
    signInAs('admin')
    sourcePage(() => HttpResponse.json([]))
    const { unmount } = renderRoute('/dashboard/admin/analytics/source/s1')
    expect(
      await within(await screen.findByTestId('source-domains')).findByText(
        'No reader confirmed through this source in that time.',
      ),
    ).toBeInTheDocument()
    unmount()

    sourcePage(() => postgrestError(403, 'Only an admin can do this', '42501'))
    renderRoute('/dashboard/admin/analytics/source/s1')
    const alert = await within(await screen.findByTestId('source-domains')).findByRole('alert')
    expect(alert).toHaveTextContent('Could not load the reader domains')
    expect(alert).toHaveTextContent('Only an admin can do this')
  })
})
