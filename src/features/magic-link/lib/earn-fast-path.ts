/**
 * `/earn/{code}` opened from outside the app (a cold load): the SPEC §4 flow before any of the app has
 * loaded. The same state machine as the in-app route (`runMagicLinkFlow`), the same storage keys and toasts;
 * the click is one `fetch` with the device info, whose fingerprint the entry started computing at once.
 * Then the address becomes the flow's destination (`/newsletters?…` or the unavailable page) and the app
 * starts there: React, the router and the page load after the redirect, never before it.
 */
import { collectDeviceInfo } from '@/lib/device-info'
import { postTrackClick } from '../api/track-click-request'
import { runMagicLinkFlow, type MagicLinkOutcome } from './magic-link-flow'
import { showMagicLinkToast } from './magic-link-toasts'

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

export async function runEarnFastPath(code: string, fingerprint: () => Promise<string>): Promise<MagicLinkOutcome> {
  const outcome = await runMagicLinkFlow(code, {
    collectDeviceInfo: () => collectDeviceInfo(fingerprint),
    trackClick: postTrackClick,
  })
  window.history.replaceState(null, '', outcome.to)
  // The toast waits for sonner (loaded now) and shows once the app's toaster mounts.
  if (outcome.toast) showMagicLinkToast(outcome.toast)
  return outcome
}
