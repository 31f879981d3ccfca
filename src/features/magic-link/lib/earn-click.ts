/**
 * The first half of the `/earn/{code}` fast path: the SPEC §4 flow's one backend call and the redirect, with
 * nothing else. `dist/earn.html` runs it from an inline script while the page's modules still download
 * (src/features/magic-link/earn-inline.ts), so it must stay small and free of React, the router, the Supabase
 * client and toasts; the second half (src/features/magic-link/lib/earn-fast-path.ts) shows the toast and sends
 * the fingerprint once the modules are there.
 *
 * The fingerprint is not waited for: its library needs ~150–250 ms of the visitor's CPU, longer than the whole
 * redirect may take (ARCHITECTURE "Budgets"). The click goes out with `fingerprint: null` (still computing)
 * and `attach_click_fingerprint` records it on that click while the visitor already reads /newsletters.
 * Whether a click counts never depends on it (the server's visitor hash does).
 */
import { collectDeviceInfo } from '@/lib/device-info'
import { postTrackClick } from '../api/track-click-request'
import { runMagicLinkFlow, type MagicLinkOutcome } from './magic-link-flow'

/** `/earn` or `/earn/{code}`: the code (maybe empty), else null for any other path. */
export function earnCodeOf(pathname: string): string | null {
  const match = /^\/earn(?:\/([^/]*))?\/?$/.exec(pathname)
  if (!match) return null
  try {
    return decodeURIComponent(match[1] ?? '')
  } catch {
    return match[1] ?? ''
  }
}

export type EarnClick = MagicLinkOutcome & {
  /** The recorded click, when there is one. */
  clickId: string | null
  /** The click went out without its fingerprint, which is to be attached to it. */
  fingerprintFollows: boolean
}

/** Records the click and moves the address to the flow's destination (no toast: that is the second half). */
export async function recordEarnClick(code: string): Promise<EarnClick> {
  let clickId: string | null = null
  let fingerprintFollows = false
  const outcome = await runMagicLinkFlow(code, {
    collectDeviceInfo: () => collectDeviceInfo(() => Promise.resolve(null)),
    trackClick: async (variables) => {
      const result = await postTrackClick(variables)
      clickId = result.clickId
      fingerprintFollows = 'fingerprint' in variables.deviceInfo && variables.deviceInfo.fingerprint === null
      return result
    },
  })
  window.history.replaceState(null, '', outcome.to)
  return { ...outcome, clickId, fingerprintFollows }
}

/** Where the inline script leaves its click for the app's modules (src/main.tsx, src/app/earn-entry.ts). */
declare global {
  interface Window {
    __growletterEarnClick?: Promise<EarnClick>
  }
}
