/**
 * The `/earn` click handed from `dist/earn.html` to the next document. The light page records the click and
 * leaves with a document navigation (`location.replace`), so its second half (the flow's toast, the
 * fingerprint attached to the click) runs at the destination: src/main.tsx sees this record and loads
 * src/app/earn-entry.ts beside the app. Session storage: the same tab, gone with it, read once.
 * Not a SPEC §3 key: an internal hand-over, removed as soon as it is read.
 */
import type { MagicLinkOutcome } from './magic-link-flow'

export const EARN_PENDING_KEY = 'growletter_earn_click'

/** Older than this, the record is left alone: `attach_click_fingerprint` refuses after 10 minutes anyway. */
const PENDING_MAX_AGE_MS = 10 * 60_000

export type EarnClick = MagicLinkOutcome & {
  /** The recorded click, when there is one. */
  clickId: string | null
  /** The click went out without its fingerprint, which is to be attached to it. */
  fingerprintFollows: boolean
}

type PendingRecord = EarnClick & { at: number }

export function storePendingEarnClick(click: EarnClick, now = Date.now()) {
  try {
    window.sessionStorage.setItem(EARN_PENDING_KEY, JSON.stringify({ ...click, at: now } satisfies PendingRecord))
  } catch {
    // Storage disabled: the click is recorded; only its toast and fingerprint are lost.
  }
}

/** Cheap enough for every start of the app (src/main.tsx). */
export function hasPendingEarnClick(): boolean {
  try {
    return window.sessionStorage.getItem(EARN_PENDING_KEY) !== null
  } catch {
    return false
  }
}

/** Reads and removes the record; null when there is none, it is stale or unreadable. */
export function takePendingEarnClick(now = Date.now()): EarnClick | null {
  let raw: string | null
  try {
    raw = window.sessionStorage.getItem(EARN_PENDING_KEY)
    window.sessionStorage.removeItem(EARN_PENDING_KEY)
  } catch {
    return null
  }
  try {
    const record = JSON.parse(raw ?? 'null') as Partial<PendingRecord> | null
    if (!record || typeof record.to !== 'string' || typeof record.at !== 'number') return null
    if (now - record.at > PENDING_MAX_AGE_MS || record.at > now + 60_000) return null
    const toast =
      record.toast === 'unavailable' ||
      record.toast === 'pending' ||
      record.toast === 'note' ||
      record.toast === 'linkError'
        ? record.toast
        : null
    return {
      to: record.to,
      toast,
      clickId: typeof record.clickId === 'string' ? record.clickId : null,
      fingerprintFollows: record.fingerprintFollows === true,
    }
  } catch {
    return null
  }
}
