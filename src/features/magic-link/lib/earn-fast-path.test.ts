/**
 * The `/earn/{code}` fast path (a cold load, before any React): the same SPEC §4 branches, storage keys and
 * toasts as the in-app route, with the click sent by plain `fetch` with the device info at once, and the
 * fingerprint attached to that click after the redirect.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { toast } from 'sonner'
import { historyRedirect, recordEarnClick } from '@/features/magic-link/lib/earn-click'
import {
  earnCodeOf,
  finishEarnClick,
  finishPendingEarnClick,
  runEarnFastPath,
} from '@/features/magic-link/lib/earn-fast-path'
import { EARN_PENDING_KEY, hasPendingEarnClick, takePendingEarnClick } from '@/features/magic-link/lib/earn-pending'
import { currentTimeZone } from '@/lib/device-info'
import { restUrl, server } from '../../../testing/msw-server'

const SOURCE_ID = '10000000-0000-4000-a000-000000000001'
const fingerprint = () => Promise.resolve('fp-fast-path')
const CLICK_ID = '30000000-0000-4000-a000-000000000001'
const validAnswer = () =>
  HttpResponse.json({
    click_id: CLICK_ID,
    source_id: SOURCE_ID,
    source_name: 'Pat',
    unified_code: 'demo-approved',
    status: 'valid',
    source_status: 'approved',
    counted: true,
    not_counted_reason: null,
  })

function attachHandler(answer: () => Response = () => HttpResponse.json(true)) {
  const calls: { p_click_id: string; p_fingerprint: string }[] = []
  server.use(
    http.post(restUrl('rpc/attach_click_fingerprint'), async ({ request }) => {
      calls.push((await request.json()) as (typeof calls)[number])
      return answer()
    }),
  )
  return calls
}

function trackHandler(answer: () => Response) {
  const calls: { body: { unified_code: string; device_info: Record<string, unknown> }; apikey: string | null }[] = []
  server.use(
    http.post(restUrl('rpc/track_audience_source_click'), async ({ request }) => {
      calls.push({
        body: (await request.json()) as (typeof calls)[number]['body'],
        apikey: request.headers.get('apikey'),
      })
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
  it('a valid source: one call with the device info, the SPEC §3 keys, → /newsletters with the query; then the fingerprint', async () => {
    const calls = trackHandler(validAnswer)
    const attached = attachHandler()
    let computed = false
    const result = await runEarnFastPath('demo-approved', () => {
      computed = true
      return Promise.resolve('fp-fast-path')
    })
    expect(calls).toHaveLength(1)
    expect(calls[0]!.apikey).toBeTruthy()
    expect(calls[0]!.body.unified_code).toBe('demo-approved')
    // The click never waits for the fingerprint: null says it follows.
    expect(calls[0]!.body.device_info).toMatchObject({ fingerprint: null, ip: null, country: null })
    expect(calls[0]!.body.device_info.userAgent).toBe(window.navigator.userAgent)
    expect(window.location.pathname + window.location.search).toBe(
      `/newsletters?source=demo-approved&audience_source_id=${SOURCE_ID}`,
    )
    expect(window.localStorage.getItem('audience_source_id')).toBe(SOURCE_ID)
    expect(window.localStorage.getItem('source_attribution_page')).toBe('magic_link_redirect')
    expect(window.sessionStorage.getItem('magic_link_source')).toBe('demo-approved')
    expect(activeToasts()).toEqual([])
    expect(computed).toBe(true)
    await expect(result.fingerprintRecorded).resolves.toBe(true)
    expect(attached).toEqual([{ p_click_id: CLICK_ID, p_fingerprint: 'fp-fast-path' }])
  })

  it('computes the fingerprint only after the redirect', async () => {
    trackHandler(validAnswer)
    attachHandler()
    let pathWhenComputed = ''
    const result = await runEarnFastPath('demo-approved', () => {
      pathWhenComputed = window.location.pathname
      return Promise.resolve('fp-fast-path')
    })
    await result.fingerprintRecorded
    expect(pathWhenComputed).toBe('/newsletters')
  })

  it('a failed fingerprint call changes nothing for the visitor and never throws', async () => {
    trackHandler(validAnswer)
    attachHandler(() => HttpResponse.json({ message: 'boom' }, { status: 500 }))
    const result = await runEarnFastPath('demo-approved', fingerprint)
    await expect(result.fingerprintRecorded).resolves.toBe(false)
    expect(window.location.pathname).toBe('/newsletters')
    expect(activeToasts()).toEqual([])
  })

  it('attaches nothing when no click was recorded (unknown code)', async () => {
    trackHandler(() => HttpResponse.json({ click_id: null, source_id: null, status: 'not_found', counted: false }))
    const attached = attachHandler()
    let computed = false
    const result = await runEarnFastPath('no-such-code', () => {
      computed = true
      return fingerprint()
    })
    await expect(result.fingerprintRecorded).resolves.toBe(false)
    expect(computed).toBe(false)
    expect(attached).toHaveLength(0)
  })

  it("an inactive source: 'Source Unavailable' → /newsletters/unavailable", async () => {
    trackHandler(() =>
      HttpResponse.json({
        click_id: null,
        source_id: SOURCE_ID,
        status: 'inactive',
        source_status: 'banned',
        counted: false,
      }),
    )
    await runEarnFastPath('demo-banned', fingerprint)
    expect(window.location.pathname).toBe('/newsletters/unavailable')
    await waitFor(() => expect(activeToasts()).toContain('Source Unavailable'))
  })

  it("a source waiting for review: 'Source not approved yet' → /newsletters/unavailable?reason=pending", async () => {
    trackHandler(() =>
      HttpResponse.json({
        click_id: null,
        source_id: SOURCE_ID,
        status: 'inactive',
        source_status: 'pending_review',
        counted: false,
      }),
    )
    const click = await recordEarnClick('demo-pending-review', historyRedirect)
    expect(window.location.pathname + window.location.search).toBe('/newsletters/unavailable?reason=pending')
    expect(click).toMatchObject({ toast: 'pending', clickId: null })
    finishEarnClick(click, fingerprint)
    await waitFor(() => expect(activeToasts()).toContain('Source not approved yet'))
  })

  it("the call fails: the 'Note' toast and /newsletters?source={code}", async () => {
    trackHandler(() => HttpResponse.json({ code: 'XX000', message: 'boom' }, { status: 500 }))
    await runEarnFastPath('demo-approved', fingerprint)
    expect(window.location.pathname + window.location.search).toBe('/newsletters?source=demo-approved')
    await waitFor(() => expect(activeToasts()).toContain('Note'))
  })

  it("the inline half (dist/earn.html) records and redirects only; the app's half then toasts and attaches", async () => {
    trackHandler(() =>
      HttpResponse.json({
        click_id: null,
        source_id: SOURCE_ID,
        status: 'inactive',
        source_status: 'banned',
        counted: false,
      }),
    )
    const click = await recordEarnClick('demo-banned', historyRedirect)
    expect(window.location.pathname).toBe('/newsletters/unavailable')
    expect(click).toMatchObject({ toast: 'unavailable', clickId: null })
    expect(activeToasts()).toEqual([])
    finishEarnClick(click, fingerprint)
    await waitFor(() => expect(activeToasts()).toContain('Source Unavailable'))
  })

  it("uses the click dist/earn.html's inline script already sent: no second call, the fingerprint for that click", async () => {
    const calls = trackHandler(validAnswer)
    const attached = attachHandler()
    window.__growletterEarnClick = recordEarnClick('demo-approved', historyRedirect)
    try {
      const result = await runEarnFastPath('demo-approved', fingerprint)
      await expect(result.fingerprintRecorded).resolves.toBe(true)
    } finally {
      delete window.__growletterEarnClick
    }
    expect(calls).toHaveLength(1)
    expect(attached).toEqual([{ p_click_id: CLICK_ID, p_fingerprint: 'fp-fast-path' }])
    expect(window.location.pathname).toBe('/newsletters')
    // Handled in this document: nothing is left for the next one.
    expect(hasPendingEarnClick()).toBe(false)
  })

  it('an empty code goes to /newsletters without a backend call', async () => {
    const calls = trackHandler(() => HttpResponse.json({}))
    await runEarnFastPath('', fingerprint)
    expect(calls).toHaveLength(0)
    expect(window.location.pathname + window.location.search).toBe('/newsletters')
  })
})

describe('dist/earn.html → the destination document', () => {
  it('the light page hands the click over in session storage and leaves by the redirect it is given', async () => {
    trackHandler(validAnswer)
    const redirects: string[] = []
    const click = await recordEarnClick('demo-approved', (to) => redirects.push(to))
    const to = `/newsletters?source=demo-approved&audience_source_id=${SOURCE_ID}`
    expect(redirects).toEqual([to])
    expect(click).toMatchObject({ to, toast: null, clickId: CLICK_ID, fingerprintFollows: true })
    // The SPEC §3 keys are written before the redirect, as before.
    expect(window.localStorage.getItem('audience_source_id')).toBe(SOURCE_ID)
    expect(hasPendingEarnClick()).toBe(true)
    expect(JSON.parse(window.sessionStorage.getItem(EARN_PENDING_KEY)!)).toMatchObject({
      clickId: CLICK_ID,
      fingerprintFollows: true,
    })
  })

  it('the destination attaches the fingerprint to the handed-over click, once', async () => {
    trackHandler(validAnswer)
    const attached = attachHandler()
    await recordEarnClick('demo-approved', () => undefined)
    const result = finishPendingEarnClick(fingerprint)
    await expect(result!.fingerprintRecorded).resolves.toBe(true)
    expect(attached).toEqual([{ p_click_id: CLICK_ID, p_fingerprint: 'fp-fast-path' }])
    expect(finishPendingEarnClick(fingerprint)).toBeNull()
    expect(attached).toHaveLength(1)
  })

  it("the destination shows the flow's toast", async () => {
    trackHandler(() => HttpResponse.json({ click_id: null, source_id: null, status: 'not_found', counted: false }))
    const attached = attachHandler()
    await recordEarnClick('no-such-code', () => undefined)
    expect(activeToasts()).toEqual([])
    const result = finishPendingEarnClick(fingerprint)
    await waitFor(() => expect(activeToasts()).toContain('Source Unavailable'))
    await expect(result!.fingerprintRecorded).resolves.toBe(false)
    expect(attached).toHaveLength(0)
  })

  it('nothing pending, stale or unreadable: nothing happens', () => {
    expect(finishPendingEarnClick(fingerprint)).toBeNull()
    const record = { to: '/newsletters', toast: 'note', clickId: CLICK_ID, fingerprintFollows: true, at: 1_000 }
    window.sessionStorage.setItem(EARN_PENDING_KEY, JSON.stringify(record))
    expect(takePendingEarnClick(1_000 + 11 * 60_000)).toBeNull()
    expect(hasPendingEarnClick()).toBe(false)
    window.sessionStorage.setItem(EARN_PENDING_KEY, '{not json')
    expect(takePendingEarnClick()).toBeNull()
    window.sessionStorage.setItem(EARN_PENDING_KEY, JSON.stringify({ ...record, toast: 'bogus' }))
    expect(takePendingEarnClick(1_000)).toEqual({
      to: '/newsletters',
      toast: null,
      clickId: CLICK_ID,
      fingerprintFollows: true,
    })
  })
})

describe('currentTimeZone', () => {
  const globals = globalThis as { Temporal?: unknown }
  const original = globals.Temporal
  afterEach(() => {
    globals.Temporal = original
  })

  it('asks Temporal when the browser has it (no Intl formatter is built)', () => {
    globals.Temporal = { Now: { timeZoneId: () => 'America/Buenos_Aires' } }
    expect(currentTimeZone()).toBe('America/Buenos_Aires')
  })

  it('falls back to Intl without Temporal or when it throws', () => {
    const intl = Intl.DateTimeFormat().resolvedOptions().timeZone
    globals.Temporal = undefined
    expect(currentTimeZone()).toBe(intl)
    globals.Temporal = {
      Now: {
        timeZoneId: () => {
          throw new RangeError('no zone')
        },
      },
    }
    expect(currentTimeZone()).toBe(intl)
  })
})

describe('src/main.tsx', () => {
  it('looks for the hand-over under the key dist/earn.html writes', async () => {
    const source = (await import('@/main.tsx?raw')).default
    expect(source).toContain(`sessionStorage.getItem('${EARN_PENDING_KEY}')`)
  })
})
