/**
 * Where a magic-link visit is remembered (SPEC §3 keys). The subscription form and the newsletter list read
 * these keys through `src/lib/storage-keys.ts`; `source_attribution` holds the whole record as JSON,
 * including the click id the campaign pages record views on.
 */
import { readLocal, sessionStorageKeys, storageKeys, writeLocal } from '@/lib/storage-keys'

export const ATTRIBUTION_PAGE = 'magic_link_redirect'

export type StoredAttribution = {
  sourceId: string
  sourceName: string | null
  unifiedCode: string
  clickId: string | null
  /** The click's signed token (track_audience_source_click), sent with a subscription. */
  clickToken?: string | null
  page: typeof ATTRIBUTION_PAGE
  timestamp: string
}

/** SPEC §4 "store the code": the first step, before anything can fail. */
export function storeMagicLinkCode(code: string) {
  try {
    window.sessionStorage.setItem(sessionStorageKeys.magicLinkSource, code)
  } catch {
    // Session storage can be disabled; the local copy below still carries the attribution.
  }
}

export function storeAttribution(attribution: Omit<StoredAttribution, 'page' | 'timestamp'>, now = new Date()) {
  const timestamp = now.toISOString()
  const record: StoredAttribution = { ...attribution, page: ATTRIBUTION_PAGE, timestamp }
  writeLocal(storageKeys.audienceSourceId, attribution.sourceId)
  writeLocal(storageKeys.sourceName, attribution.sourceName ?? '')
  writeLocal(storageKeys.sourceUnifiedCode, attribution.unifiedCode)
  writeLocal(storageKeys.magicLinkSource, attribution.unifiedCode)
  writeLocal(storageKeys.sourceAttribution, JSON.stringify(record))
  writeLocal(storageKeys.magicLinkTimestamp, timestamp)
  writeLocal(storageKeys.sourceAttributionTimestamp, timestamp)
  writeLocal(storageKeys.sourceAttributionPage, ATTRIBUTION_PAGE)
  storeMagicLinkCode(attribution.unifiedCode)
}

/** The click this browser session made on `code`, so a reload does not record a second click. */
export function readSessionClickId(code: string): string | null {
  let sessionCode: string | null = null
  try {
    sessionCode = window.sessionStorage.getItem(sessionStorageKeys.magicLinkSource)
  } catch {
    return null
  }
  if (!sessionCode || sessionCode.toLowerCase() !== code.toLowerCase()) return null
  try {
    const record = JSON.parse(readLocal(storageKeys.sourceAttribution) ?? 'null') as Partial<StoredAttribution> | null
    return record?.unifiedCode?.toLowerCase() === code.toLowerCase() && typeof record.clickId === 'string'
      ? record.clickId
      : null
  } catch {
    return null
  }
}
