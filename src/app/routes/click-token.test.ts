/**
 * Issue 41: the signed click token travels in the URL the link lands on (`ct`), and `?email=` from a publisher's
 * newsletter is carried to the list; the subscription sends the URL's token, which is what a reader who changed
 * browser still has.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { runMagicLinkFlow } from '@/features/magic-link/lib/magic-link-flow'
import type { ClickResult, TrackClickVariables } from '@/features/magic-link/api/click-result'
import { readSubscriptionAttribution } from '@/features/subscriptions/lib/subscription-attribution'

const SOURCE_ID = '10000000-0000-4000-a000-000000000001'
const CLICK_ID = '30000000-0000-4000-a000-000000000001'
const TOKEN = `${CLICK_ID}.1796165804.f4d27ce287d2108b4c6e7d326fa16053`

const valid: ClickResult = {
  clickId: CLICK_ID,
  sourceId: SOURCE_ID,
  sourceName: 'Notes',
  unifiedCode: 'demo-approved',
  status: 'valid',
  sourceStatus: 'approved',
  counted: true,
  notCountedReason: null,
  clickToken: TOKEN,
}

function deps(result: ClickResult) {
  const calls: TrackClickVariables[] = []
  return {
    calls,
    deps: {
      collectDeviceInfo: async () => ({ timestamp: 'now', ip: null, country: null }),
      trackClick: async (variables: TrackClickVariables) => {
        calls.push(variables)
        return result
      },
    },
  }
}

afterEach(() => {
  window.localStorage.clear()
  window.history.replaceState(null, '', '/')
})

describe('the magic link carries its click token and the reader’s address', () => {
  it('lands on the list with ct, and keeps the token with the stored attribution', async () => {
    const { deps: d } = deps(valid)
    const outcome = await runMagicLinkFlow('demo-approved', d)
    const url = new URL(outcome.to, 'http://x')
    expect(url.pathname).toBe('/newsletters')
    expect(url.searchParams.get('ct')).toBe(TOKEN)
    expect(url.searchParams.get('audience_source_id')).toBe(SOURCE_ID)
    expect(url.searchParams.has('email')).toBe(false)
    expect(JSON.parse(window.localStorage.getItem('source_attribution')!)).toMatchObject({ clickToken: TOKEN })
  })

  it('adds no ct for a click without a token (not counted)', async () => {
    const { deps: d } = deps({ ...valid, counted: false, clickToken: null })
    expect(new URL((await runMagicLinkFlow('demo-approved', d)).to, 'http://x').searchParams.has('ct')).toBe(false)
  })

  it('carries ?email= to the list and records the click as from email', async () => {
    const { deps: d, calls } = deps(valid)
    const outcome = await runMagicLinkFlow('demo-approved', d, { email: ' ann@example.com ' })
    expect(new URL(outcome.to, 'http://x').searchParams.get('email')).toBe('ann@example.com')
    expect(calls[0]!.deviceInfo).toMatchObject({ channel: 'email' })
  })
})

describe('the subscription’s attribution', () => {
  it('sends the URL’s token and source in a browser that has nothing stored (in-app browser → Safari)', () => {
    window.history.replaceState(null, '', `/newsletters?source=demo&audience_source_id=${SOURCE_ID}&ct=${TOKEN}`)
    expect(readSubscriptionAttribution()).toEqual({ audienceSourceId: SOURCE_ID, clickToken: TOKEN })
  })

  it('sends the stored click and token in the browser that clicked', () => {
    window.localStorage.setItem('audience_source_id', SOURCE_ID)
    window.localStorage.setItem(
      'source_attribution',
      JSON.stringify({ sourceId: SOURCE_ID, clickId: CLICK_ID, clickToken: TOKEN }),
    )
    expect(readSubscriptionAttribution()).toEqual({ audienceSourceId: SOURCE_ID, clickId: CLICK_ID, clickToken: TOKEN })
  })

  it('sends the URL’s source without a token: the database decides (no_click in another browser)', () => {
    window.history.replaceState(null, '', `/newsletters?source=demo&audience_source_id=${SOURCE_ID}`)
    expect(readSubscriptionAttribution()).toEqual({ audienceSourceId: SOURCE_ID })
  })

  it('sends nothing without a link', () => {
    expect(readSubscriptionAttribution()).toEqual({})
  })
})
