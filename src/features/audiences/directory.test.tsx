import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'

const source = (i: number, overrides: Record<string, unknown> = {}) => ({
  id: `10000000-0000-4000-a000-${String(i).padStart(12, '0')}`,
  name: `Source ${i}`,
  description: 'A weekly letter',
  image_url: null,
  platform: 'newsletter',
  status: 'approved',
  category: 'technology',
  created_at: '2026-11-01T10:00:00Z',
  url: `https://source${i}.example.com`,
  ...overrides,
})

/** The directory's two requests: a page of rows (GET) and the exact count (HEAD). */
function directory(all: ReturnType<typeof source>[], seen: URL[] = []) {
  server.use(
    http.get(restUrl('audience_sources'), ({ request }) => {
      const url = new URL(request.url)
      seen.push(url)
      const offset = Number(url.searchParams.get('offset') ?? 0)
      const limit = Number(url.searchParams.get('limit') ?? 1000)
      return HttpResponse.json(all.slice(offset, offset + limit))
    }),
    http.head(
      restUrl('audience_sources'),
      () => new HttpResponse(null, { headers: { 'Content-Range': `*/${all.length}` } }),
    ),
  )
  return seen
}

describe('/audiences directory (SPEC §2)', () => {
  it('shows the loading text and skeletons first', async () => {
    server.use(
      http.get(restUrl('audience_sources'), () => new Promise(() => {})),
      http.head(restUrl('audience_sources'), () => new Promise(() => {})),
    )
    renderRoute('/audiences')
    expect(await screen.findByText('Loading magical audience sources…')).toBeInTheDocument()
    expect(screen.getAllByTestId('audience-card-skeleton').length).toBeGreaterThan(0)
  })

  it('lists public sources newest first, 24 a page, with the count from a HEAD count query', async () => {
    const seen = directory(Array.from({ length: 30 }, (_, i) => source(i + 1)))
    renderRoute('/audiences')
    expect(await screen.findByRole('heading', { level: 1, name: 'Discover Trusted Audiences' })).toBeInTheDocument()
    expect(await screen.findAllByTestId('audience-card')).toHaveLength(24)
    expect(await screen.findByTestId('audience-count')).toHaveTextContent('30 audience sources')
    const first = seen[0]
    expect(first.searchParams.get('status')).toBe('in.(approved,verified,live)')
    expect(first.searchParams.get('order')).toMatch(/^created_at\.desc/)
    expect(first.searchParams.get('limit')).toBe('24')

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }))
    await waitFor(() => expect(screen.getAllByTestId('audience-card')).toHaveLength(30))
    expect(seen.at(-1)!.searchParams.get('offset')).toBe('24')
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
  })

  it('renders each card by the SPEC rules', async () => {
    directory([
      source(1, {
        name: 'Pat on X',
        platform: 'x',
        status: 'verified',
        category: null,
        url: null,
        description: 'no link',
      }),
      source(2, { name: 'Live Show', platform: 'youtube', status: 'live', image_url: '/seed/a.svg' }),
    ])
    renderRoute('/audiences')
    const [x, live] = await screen.findAllByTestId('audience-card')
    expect(within(x).getByTestId('status-badge')).toHaveTextContent('Verified')
    expect(within(x).getByTestId('status-badge').className).toContain('bg-green-100')
    expect(within(x).getByText('Other')).toBeInTheDocument()
    expect(within(x).getByText('X')).toBeInTheDocument()
    expect(within(x).getByText('P')).toBeInTheDocument()
    expect(within(x).getByText('Active publisher audience')).toBeInTheDocument()
    expect(within(x).getByText('Active Publisher')).toBeInTheDocument()
    expect(within(x).getByRole('button', { name: 'Visit Page' })).toBeDisabled()

    expect(within(live).getByTestId('status-badge')).toHaveTextContent('Live')
    expect(within(live).getByText('Technology')).toBeInTheDocument()
    const img = live.querySelector('img')!
    expect(img).toHaveAttribute('loading', 'lazy')
    expect(img).toHaveAttribute('width', '56')
    expect(img).toHaveAttribute('height', '56')
    expect(within(live).getByRole('link', { name: /Visit Page/ })).toHaveAttribute(
      'href',
      'https://source2.example.com',
    )
  })

  it('shows the empty text when there are no public sources', async () => {
    directory([])
    renderRoute('/audiences')
    expect(await screen.findByText('No verified audience sources available right now.')).toBeInTheDocument()
  })

  it("shows 'Failed to load sources' with the message when loading fails", async () => {
    server.use(
      http.get(restUrl('audience_sources'), () =>
        HttpResponse.json({ code: 'XX000', message: 'database is down', details: null, hint: null }, { status: 500 }),
      ),
      http.head(restUrl('audience_sources'), () => new HttpResponse(null, { status: 500 })),
    )
    renderRoute('/audiences')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Failed to load sources')
    expect(alert).toHaveTextContent('database is down')
  })

  it('filters by category and name, keeping both in the URL', async () => {
    const seen = directory([source(1)])
    const { router } = renderRoute('/audiences')
    await screen.findAllByTestId('audience-card')
    await userEvent.selectOptions(screen.getByLabelText('Category'), 'finance')
    await waitFor(() => expect(router.state.location.search).toBe('?category=finance'))
    await waitFor(() => expect(seen.at(-1)!.searchParams.get('category')).toBe('eq.finance'))

    await userEvent.type(screen.getByLabelText('Search by name'), 'pat')
    await waitFor(() => expect(router.state.location.search).toBe('?q=pat&category=finance'))
    await waitFor(() => expect(seen.at(-1)!.searchParams.get('name')).toBe('ilike.%pat%'))
  })

  it('reads the filters from the URL on arrival', async () => {
    const seen = directory([source(1)])
    renderRoute('/audiences?q=notes&category=business')
    await screen.findAllByTestId('audience-card')
    expect(seen[0].searchParams.get('name')).toBe('ilike.%notes%')
    expect(seen[0].searchParams.get('category')).toBe('eq.business')
    expect(screen.getByLabelText('Search by name')).toHaveValue('notes')
  })
})
