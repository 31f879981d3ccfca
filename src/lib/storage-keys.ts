/**
 * Browser storage keys named by SPEC §3, and `confirmed_newsletters` (ours: what this browser confirmed, so the
 * list stops saying "Check your email"). Every read and write goes through these names.
 */
export const storageKeys = {
  intendedUserType: 'intended_user_type',
  userFullName: 'user_full_name',
  userFirstName: 'user_first_name',
  userLastName: 'user_last_name',
  testUserSession: 'testUserSession',
  subscribedNewsletters: 'subscribed_newsletters',
  confirmedNewsletters: 'confirmed_newsletters',
  audienceSourceId: 'audience_source_id',
  sourceName: 'source_name',
  sourceUnifiedCode: 'source_unified_code',
  magicLinkSource: 'magic_link_source',
  sourceAttribution: 'source_attribution',
  magicLinkTimestamp: 'magic_link_timestamp',
  sourceAttributionTimestamp: 'source_attribution_timestamp',
  sourceAttributionPage: 'source_attribution_page',
} as const

/**
 * Session storage keys: SPEC §3's, and the checkout session this tab last opened (so a return through the
 * checkout's cancel_url, which names no session, closes that deposit).
 */
export const sessionStorageKeys = {
  magicLinkSource: 'magic_link_source',
  openCheckout: 'open_checkout_session',
} as const

/** Reads local storage without throwing (private mode, quota, disabled storage). */
export function readLocal(key: string): string | null {
  try {
    return window.localStorage.getItem(key)
  } catch {
    return null
  }
}

export function writeLocal(key: string, value: string) {
  try {
    window.localStorage.setItem(key, value)
  } catch {
    // Storage can be unavailable (private mode, quota); attribution is best effort in the browser.
  }
}

export function removeLocal(key: string) {
  try {
    window.localStorage.removeItem(key)
  } catch {
    // see writeLocal
  }
}
