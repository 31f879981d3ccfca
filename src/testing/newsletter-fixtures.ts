/** MSW answers shaped like the embedded backend for the public newsletter pages, shared by these tests. */
import { http, HttpResponse } from 'msw'
import { restUrl } from './msw-server'

export const campaignRow = (id: string, name: string, overrides: Record<string, unknown> = {}) => ({
  id,
  name,
  description: `${name} every week.`,
  image_url: null,
  category: 'Technology',
  website_url: 'https://example.com',
  status: 'active',
  created_at: '2026-11-01T10:00:00Z',
  advertiser: { full_name: 'Ada Advertiser' },
  ...overrides,
})

export const CAMPAIGNS = [
  campaignRow('20000000-0000-4000-a000-000000000001', 'Morning Brew'),
  campaignRow('20000000-0000-4000-a000-000000000002', 'Dev Digest', { category: 'Business' }),
]

/** A PostgREST counted answer: rows plus `Content-Range`. */
export function counted(rows: unknown[], total: number, from = 0) {
  const range = rows.length ? `${from}-${from + rows.length - 1}/${total}` : `*/${total}`
  return HttpResponse.json(rows, { headers: { 'Content-Range': range } })
}

/** `/newsletters` list and category requests, recorded so tests can look at the filters sent. */
export function campaignsHandler(rows: unknown[] = CAMPAIGNS, seen: URL[] = []) {
  return http.get(restUrl('campaigns'), ({ request }) => {
    const url = new URL(request.url)
    seen.push(url)
    if (url.searchParams.get('select') === 'category') return HttpResponse.json(rows)
    const idFilter = url.searchParams.get('id')
    if (idFilter) return HttpResponse.json(rows.filter((r) => `eq.${(r as { id: string }).id}` === idFilter))
    return counted(rows, rows.length)
  })
}

/** The directory's engaged rates (`newsletter_engaged_rates`), as the database answers them; none by default. */
export function engagedRatesHandler(
  rates: { campaign_id: string; readers: number; engaged: number; engaged_rate: string | null }[] = [],
) {
  return http.get(restUrl('rpc/newsletter_engaged_rates'), () => HttpResponse.json(rates))
}
