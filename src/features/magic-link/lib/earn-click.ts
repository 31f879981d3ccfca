/**
 * The first half of the `/earn/{code}` fast path: the SPEC §4 flow's one backend call and the redirect, with
 * nothing else. `dist/earn.html` is this alone, an inline script (src/features/magic-link/earn-inline.ts) and a
 * spinner: no module, stylesheet or preload competes with the click for the tab's main thread, and it leaves
 * with a document navigation to the prerendered destination. So it must stay small and free of React, the
 * router, the Supabase client and toasts; the second half (./earn-fast-path.ts) shows the toast and sends the
 * fingerprint at the destination, handed over in session storage (./earn-pending.ts).
 *
 * The fingerprint is not waited for: its library needs ~150–250 ms of the visitor's CPU, longer than the whole
 * redirect may take (ARCHITECTURE "Budgets"). The click goes out with `fingerprint: null` (still computing)
 * and `attach_click_fingerprint` records it on that click while the visitor already reads /newsletters.
 * Whether a click counts never depends on it (the server's visitor hash does).
 */
import { EARN_PATH } from '@/config/paths'
import { collectDeviceInfo } from '@/lib/device-info'
import { postTrackClick } from '../api/track-click-request'
import { storePendingEarnClick, type EarnClick } from './earn-pending'
import { runMagicLinkFlow } from './magic-link-flow'

export type { EarnClick } from './earn-pending'

/** `/earn` or `/earn/{code}`: the code (maybe empty), else null for any other path. */
export function earnCodeOf(pathname: string): string | null {
  const match = EARN_PATH.exec(pathname)
  if (!match) return null
  try {
    return decodeURIComponent(match[1] ?? '')
  } catch {
    return match[1] ?? ''
  }
}

/** How the light page leaves: a document navigation to the (prerendered) destination, as a static page would. */
export const documentRedirect = (to: string) => window.location.replace(to)

/** Over `index.html` (a host without the `/earn` rewrite) the app is loaded already: a same-document change. */
export const historyRedirect = (to: string) => window.history.replaceState(null, '', to)

/**
 * Records the click, leaves the second half's work in session storage, and moves to the flow's destination
 * (no toast: that is the second half).
 */
export async function recordEarnClick(
  code: string,
  redirect: (to: string) => void = documentRedirect,
): Promise<EarnClick> {
  let clickId: string | null = null
  let fingerprintFollows = false
  const outcome = await runMagicLinkFlow(
    code,
    {
      collectDeviceInfo: () => collectDeviceInfo(() => Promise.resolve(null)),
      trackClick: async (variables) => {
        const result = await postTrackClick(variables)
        clickId = result.clickId
        fingerprintFollows = 'fingerprint' in variables.deviceInfo && variables.deviceInfo.fingerprint === null
        return result
      },
    },
    { email: new URLSearchParams(window.location.search).get('email') },
  )
  const click: EarnClick = { ...outcome, clickId, fingerprintFollows }
  storePendingEarnClick(click)
  redirect(outcome.to)
  return click
}

/** Where the inline script leaves its click (src/main.tsx, src/app/earn-entry.ts, when both run in one document). */
declare global {
  interface Window {
    __growletterEarnClick?: Promise<EarnClick>
  }
}
