// Quality in the directory: rated sources show their 30-day confirmation rate and counted share; visitors
// sort by either (the database orders, from an index; the browser only asks).
import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'

const source = (i: number, quality: { rate: number | null; share: number | null }) => ({
  id: `10000000-0000-4000-a000-${String(i).padStart(12, '0')}`,
  name: `Source ${i}`,
  description: 'A weekly letter',
  image_url: null,
  platform: 'newsletter',
  status: 'approved',
  category: 'technology',
  created_at: '2026-11-01T10:00:00Z',
  url: null,
  quality_confirmation_rate: quality.rate,
  quality_counted_share: quality.share,
})

describe('/audiences quality', () => {
  it('shows the figures of a rated source only, and sorts by confirmation rate through the database', async () => {
    const seen: URL[] = []
    server.use(
      http.get(restUrl('audience_sources'), ({ request }) => {
        seen.push(new URL(request.url))
        return HttpResponse.json([source(1, { rate: 72.5, share: 91 }), source(2, { rate: null, share: null })])
      }),
      http.head(restUrl('audience_sources'), () => new HttpResponse(null, { headers: { 'Content-Range': '*/2' } })),
    )
    renderRoute('/audiences')
    const cards = await screen.findAllByTestId('audience-card')
    const quality = within(cards[0]!).getByTestId('source-quality')
    expect(quality).toHaveTextContent('Confirmation rate72.5%')
    expect(quality).toHaveTextContent('Clicks that counted91.0%')
    expect(within(cards[1]!).queryByTestId('source-quality')).toBeNull()
    expect(seen[0]!.searchParams.get('order')).toMatch(/^created_at\.desc/)

    await userEvent.selectOptions(screen.getByLabelText('Sort by'), 'confirmation')
    await waitFor(() =>
      expect(seen.at(-1)!.searchParams.get('order')).toBe(
        'quality_confirmation_rate.desc.nullslast,created_at.desc,id.desc',
      ),
    )
    await userEvent.selectOptions(screen.getByLabelText('Sort by'), 'counted')
    await waitFor(() =>
      expect(seen.at(-1)!.searchParams.get('order')).toBe(
        'quality_counted_share.desc.nullslast,created_at.desc,id.desc',
      ),
    )
  })
})
