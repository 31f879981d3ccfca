/**
 * The `/earn/{code}` fast path (a cold load, before any React): the same SPEC §4 branches, storage keys and
 * toasts as the in-app route, with the click sent by plain `fetch` with the device info and its fingerprint.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { toast } from 'sonner'
import { earnCodeOf, runEarnFastPath } from '@/features/magic-link/lib/earn-fast-path'
import { restUrl, server } from '../msw/server'

const SOURCE_ID = '10000000-0000-4000-a000-000000000001'
const fingerprint = () => Promise.resolve('fp-fast-path')

function trackHandler(answer: () => Response) {
  const calls: { body: { unified_code: string; device_info: Record<string, unknown> }; apikey: string | null }[] = []
  server.use(
    http.post(restUrl('rpc/track_audience_source_click'), async ({ request }) => {
      calls.push({ body: (await request.json()) as (typeof calls)[number]['body'], apikey: request.headers.get('apikey') })
      return answer()
    }),
  )
  return calls
}

const activeToasts = () => toast.getToasts().map((t) => ('title' in t ? t.title : null))

afterEach(() => {
  toast.dismiss()
  window.history.replaceState(null, '', '/')
  window.localStorage.clear()
  window.sessionStorage.clear()
})

describe('earnCodeOf', () => {
  it.each([
    ['/earn/demo-approved', 'demo-approved'],
    ['/earn/demo%20code/', 'demo code'],
    ['/earn', ''],
    ['/earn/', ''],
    ['/earnings', null],
    ['/earn/a/b', null],
    ['/newsletters', null],
  ])('%s → %s', (path, code) => {
    expect(earnCodeOf(path)).toBe(code)
  })
})

describe('runEarnFastPath', () => {
  it('a valid source: one call with the device info and fingerprint, the SPEC §3 keys, → /newsletters with the query', async () => {
    const calls = trackHandler(() =>
      HttpResponse.json({ click_id: '30000000-0000-4000-a000-000000000001', source_id: SOURCE_ID, source_name: 'Pat', unified_code: 'demo-approved', status: 'valid', source_status: 'approved', counted: true, not_counted_reason: null }),
    )
    await runEarnFastPath('demo-approved', fingerprint)
    expect(calls).toHaveLength(1)
    expect(calls[0]!.apikey).toBeTruthy()
    expect(calls[0]!.body.unified_code).toBe('demo-approved')
    expect(calls[0]!.body.device_info).toMatchObject({ fingerprint: 'fp-fast-path', ip: null, country: null })
    expect(window.location.pathname + window.location.search).toBe(`/newsletters?source=demo-approved&audience_source_id=${SOURCE_ID}`)
    expect(window.localStorage.getItem('audience_source_id')).toBe(SOURCE_ID)
    expect(window.localStorage.getItem('source_attribution_page')).toBe('magic_link_redirect')
    expect(window.sessionStorage.getItem('magic_link_source')).toBe('demo-approved')
    expect(activeToasts()).toEqual([])
  })

  it("an inactive source: 'Source Unavailable' → /newsletters/unavailable", async () => {
    trackHandler(() => HttpResponse.json({ click_id: null, source_id: SOURCE_ID, status: 'inactive', source_status: 'banned', counted: false }))
    await runEarnFastPath('demo-banned', fingerprint)
    expect(window.location.pathname).toBe('/newsletters/unavailable')
    await waitFor(() => expect(activeToasts()).toContain('Source Unavailable'))
  })

  it("the call fails: the 'Note' toast and /newsletters?source={code}", async () => {
    trackHandler(() => HttpResponse.json({ code: 'XX000', message: 'boom' }, { status: 500 }))
    await runEarnFastPath('demo-approved', fingerprint)
    expect(window.location.pathname + window.location.search).toBe('/newsletters?source=demo-approved')
    await waitFor(() => expect(activeToasts()).toContain('Note'))
  })

  it('an empty code goes to /newsletters without a backend call', async () => {
    const calls = trackHandler(() => HttpResponse.json({}))
    await runEarnFastPath('', fingerprint)
    expect(calls).toHaveLength(0)
    expect(window.location.pathname + window.location.search).toBe('/newsletters')
  })
})
