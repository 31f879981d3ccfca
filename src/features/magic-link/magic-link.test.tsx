import { describe, expect, it, vi } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, waitFor, within } from '@testing-library/react'
import { restUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { campaignsHandler } from '../../testing/newsletter-fixtures'
import { expectToast } from '../../testing/expect-toast'

vi.mock('@/lib/fingerprint', () => ({ computeFingerprint: async () => 'fp-test' }))

const SOURCE_ID = '10000000-0000-4000-a000-000000000001'
const CLICK_ID = '30000000-0000-4000-a000-000000000001'

const clickAnswer = (overrides: Record<string, unknown> = {}) => ({
  click_id: CLICK_ID,
  source_id: SOURCE_ID,
  source_name: "Pat's Product Notes",
  unified_code: 'demo-approved',
  status: 'valid',
  source_status: 'approved',
  counted: true,
  not_counted_reason: null,
  ...overrides,
})

/** Answers the one rpc and records every call with its body. */
function trackHandler(answer: () => Response) {
  const calls: { unified_code: string; device_info: Record<string, unknown> }[] = []
  server.use(
    http.post(restUrl('rpc/track_audience_source_click'), async ({ request }) => {
      calls.push((await request.json()) as (typeof calls)[number])
      return answer()
    }),
    campaignsHandler([]),
  )
  return calls
}

const location = (router: ReturnType<typeof renderRoute>['router']) =>
  router.state.location.pathname + router.state.location.search

describe('/earn/{code}: the SPEC §4 magic-link flow', () => {
  it('shows the redirect spinner while the click is recorded', async () => {
    server.use(http.post(restUrl('rpc/track_audience_source_click'), () => new Promise(() => {})))
    renderRoute('/earn/demo-approved')
    expect(await screen.findByText('Redirecting to newsletters...')).toBeInTheDocument()
  })

  it('valid source: one call, attribution stored, → /newsletters with source and audience_source_id', async () => {
    const calls = trackHandler(() => HttpResponse.json(clickAnswer()))
    const { router } = renderRoute('/earn/demo-approved')
    await waitFor(() => expect(router.state.location.pathname).toBe('/newsletters'))
    expect(location(router)).toBe(`/newsletters?source=demo-approved&audience_source_id=${SOURCE_ID}`)

    expect(calls).toHaveLength(1)
    expect(calls[0].unified_code).toBe('demo-approved')
    expect(calls[0].device_info).toMatchObject({ fingerprint: 'fp-test', ip: null, country: null })
    expect(calls[0].device_info.browser).toEqual(expect.any(String))

    expect(localStorage.getItem('audience_source_id')).toBe(SOURCE_ID)
    expect(localStorage.getItem('source_name')).toBe("Pat's Product Notes")
    expect(localStorage.getItem('source_unified_code')).toBe('demo-approved')
    expect(localStorage.getItem('magic_link_source')).toBe('demo-approved')
    expect(localStorage.getItem('source_attribution_page')).toBe('magic_link_redirect')
    expect(Date.parse(localStorage.getItem('magic_link_timestamp')!)).not.toBeNaN()
    expect(localStorage.getItem('source_attribution_timestamp')).toBe(localStorage.getItem('magic_link_timestamp'))
    expect(JSON.parse(localStorage.getItem('source_attribution')!)).toMatchObject({
      sourceId: SOURCE_ID,
      clickId: CLICK_ID,
    })
    expect(sessionStorage.getItem('magic_link_source')).toBe('demo-approved')
    // The newsletter list names the source the visitor came through.
    expect(await screen.findByTestId('source-banner')).toHaveTextContent("Pat's Product Notes")
  })

  it.each([
    [
      'a banned source',
      { status: 'inactive', source_status: 'banned', counted: false, not_counted_reason: 'source_inactive' },
    ],
    [
      'an unknown code',
      { status: 'not_found', click_id: null, source_id: null, source_name: null, unified_code: null },
    ],
  ])("%s: 'Source Unavailable' toast → /newsletters/unavailable", async (_name, answer) => {
    trackHandler(() => HttpResponse.json(clickAnswer(answer)))
    const { router } = renderRoute('/earn/demo-pending')
    await waitFor(() => expect(router.state.location.pathname).toBe('/newsletters/unavailable'))
    await expectToast('Source Unavailable', 'This source is no longer available')
    expect(await screen.findByRole('heading', { name: 'This link no longer works' })).toBeInTheDocument()
    expect(localStorage.getItem('audience_source_id')).toBeNull()
    expect(sessionStorage.getItem('magic_link_source')).toBe('demo-pending')
  })

  it.each(['pending', 'pending_review', 'under_review'])(
    'a source still waiting for review (%s): the link says it starts working once approved, not "no longer"',
    async (status) => {
      trackHandler(() =>
        HttpResponse.json(
          clickAnswer({
            status: 'inactive',
            source_status: status,
            counted: false,
            not_counted_reason: 'source_inactive',
          }),
        ),
      )
      const { router } = renderRoute('/earn/demo-pending')
      await waitFor(() => expect(location(router)).toBe('/newsletters/unavailable?reason=pending'))
      await expectToast('Source not approved yet', 'This link starts working once the source is approved')
      expect(await screen.findByRole('heading', { name: 'This link is not active yet' })).toBeInTheDocument()
      expect(screen.getByText(/This link starts working once the source is approved\. Meanwhile/)).toBeInTheDocument()
      expect(screen.queryByText('This link no longer works')).toBeNull()
      expect(localStorage.getItem('audience_source_id')).toBeNull()
    },
  )

  it("tracking fails: the 'Note' toast, and the visitor still reaches /newsletters?source={code}", async () => {
    trackHandler(() =>
      HttpResponse.json({ code: 'XX000', message: 'database unavailable', details: null, hint: null }, { status: 500 }),
    )
    const { router } = renderRoute('/earn/demo-approved')
    await waitFor(() => expect(router.state.location.pathname).toBe('/newsletters'))
    expect(location(router)).toBe('/newsletters?source=demo-approved')
    await expectToast('Note', "We couldn't verify the referral link, but you can still browse newsletters.")
  })

  it("the source is known but no click was recorded: 'Note' and continue with the resolved id", async () => {
    trackHandler(() => HttpResponse.json(clickAnswer({ click_id: null })))
    const { router } = renderRoute('/earn/demo-approved')
    await waitFor(() => expect(router.state.location.pathname).toBe('/newsletters'))
    expect(location(router)).toBe(`/newsletters?source=demo-approved&audience_source_id=${SOURCE_ID}`)
    await expectToast('Note', "We couldn't verify the referral link, but you can still browse newsletters.")
  })

  it("an unexpected answer: the 'Link Error' toast → /newsletters/unavailable", async () => {
    trackHandler(() => HttpResponse.json({ surprise: true }))
    const { router } = renderRoute('/earn/demo-approved')
    await waitFor(() => expect(router.state.location.pathname).toBe('/newsletters/unavailable'))
    await expectToast('Link Error', 'There was an issue with this link, but you can still browse newsletters.')
  })

  it('an empty code goes straight to /newsletters without a backend call', async () => {
    const calls = trackHandler(() => HttpResponse.json(clickAnswer()))
    const { router } = renderRoute('/earn')
    await waitFor(() => expect(location(router)).toBe('/newsletters'))
    expect(calls).toHaveLength(0)
  })
})

describe('/newsletters/unavailable', () => {
  it('offers the newsletter list and the directory', async () => {
    renderRoute('/newsletters/unavailable')
    const main = within(await screen.findByRole('main'))
    expect(await main.findByRole('link', { name: 'Browse Newsletters' })).toHaveAttribute('href', '/newsletters')
    expect(main.getByRole('link', { name: 'Discover Audiences' })).toHaveAttribute('href', '/audiences')
  })
})
