/**
 * The SPEC §4 magic-link state machine, as a pure function of the code and its one backend call, so every
 * branch can be tested without a browser. The page turns the outcome into a toast and a redirect.
 *
 * - empty code                         → /newsletters
 * - source still waiting for review    → 'Source not approved yet' → /newsletters/unavailable?reason=pending
 * - unknown or inactive source         → 'Source Unavailable' → /newsletters/unavailable
 * - valid source                       → store the attribution → /newsletters?source=…&audience_source_id=…&ct=…
 *                                        (ct: the signed click token, so the attribution survives a change of
 *                                        browser, e.g. an in-app browser's "Open in Safari")
 * - `?email=` on the link (a publisher's ESP merge tag) is carried to the list, which fills the address in
 * - valid but no click recorded        → 'Note' → continue with the resolved id
 * - the tracking call failed           → 'Note' → /newsletters?source={code} (no id is known)
 * - anything unexpected                → 'Link Error' → /newsletters/unavailable
 */
import { paths } from '@/config/paths'
import { isSourceAwaitingReview } from '@/lib/source-review'
import type { DeviceInfo, FallbackDeviceInfo } from '@/lib/device-info'
import { ClickTrackingError, type ClickResult, type TrackClickVariables } from '../api/click-result'
import { storeAttribution, storeMagicLinkCode } from './attribution-storage'

export type MagicLinkToast = 'unavailable' | 'pending' | 'note' | 'linkError'
export type MagicLinkOutcome = { to: string; toast: MagicLinkToast | null }

export type MagicLinkDeps = {
  collectDeviceInfo: () => Promise<DeviceInfo | FallbackDeviceInfo>
  trackClick: (variables: TrackClickVariables) => Promise<ClickResult>
}

const newslettersWith = (query: Record<string, string>) =>
  `${paths.newsletters}?${new URLSearchParams(query).toString()}`

/** The link's own query: `email` (ESP merge tag) is kept for the list; anything else is dropped. */
export type MagicLinkQuery = { email?: string | null }

export async function runMagicLinkFlow(
  rawCode: string | undefined,
  deps: MagicLinkDeps,
  query: MagicLinkQuery = {},
): Promise<MagicLinkOutcome> {
  const code = (rawCode ?? '').trim()
  const address = query.email?.trim()
  const email: Record<string, string> = address ? { email: address } : {}
  if (!code) return { to: address ? newslettersWith(email) : paths.newsletters, toast: null }
  try {
    storeMagicLinkCode(code)
    let result: ClickResult
    try {
      const deviceInfo = await deps.collectDeviceInfo()
      result = await deps.trackClick({
        unifiedCode: code,
        deviceInfo: address ? { ...deviceInfo, channel: 'email' } : deviceInfo,
      })
    } catch (error) {
      if (error instanceof ClickTrackingError) return { to: newslettersWith({ source: code, ...email }), toast: 'note' }
      throw error
    }
    if (result.status === 'inactive' && isSourceAwaitingReview(result.sourceStatus))
      return { to: `${paths.newslettersUnavailable}?reason=pending`, toast: 'pending' }
    if (result.status !== 'valid' || !result.sourceId) return { to: paths.newslettersUnavailable, toast: 'unavailable' }
    const unifiedCode = result.unifiedCode ?? code
    storeAttribution({
      sourceId: result.sourceId,
      sourceName: result.sourceName,
      unifiedCode,
      clickId: result.clickId,
      clickToken: result.clickToken,
    })
    return {
      to: newslettersWith({
        source: unifiedCode,
        audience_source_id: result.sourceId,
        ...(result.clickToken ? { ct: result.clickToken } : {}),
        ...email,
      }),
      toast: result.clickId ? null : 'note',
    }
  } catch {
    return { to: paths.newslettersUnavailable, toast: 'linkError' }
  }
}
