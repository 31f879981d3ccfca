/**
 * The attribution a magic link left (SPEC §3), sent along with a subscription: the source and click from local
 * storage, and the signed click token (`ct`) from the URL the link landed on, else from storage. The URL's token is
 * what follows a reader who opened the link in an in-app browser and finishes in Safari, where storage is empty.
 */
import { readLocal, storageKeys } from '@/lib/storage-keys'

export type SubscriptionAttribution = { audienceSourceId?: string; clickId?: string; clickToken?: string }

const query = () => {
  try {
    return new URLSearchParams(window.location.search)
  } catch {
    return new URLSearchParams()
  }
}

export function readSubscriptionAttribution(): SubscriptionAttribution {
  const params = query()
  const urlToken = params.get('ct') || undefined
  // The source the link landed with: in another browser (storage empty) it still names who sent the reader; without
  // a token the database then applies the same-visitor rule (no_click when the browser changed).
  const audienceSourceId = params.get('audience_source_id') || readLocal(storageKeys.audienceSourceId) || undefined
  if (!audienceSourceId) return urlToken ? { clickToken: urlToken } : {}
  let clickId: string | undefined
  let storedToken: string | undefined
  try {
    const record = JSON.parse(readLocal(storageKeys.sourceAttribution) ?? 'null') as {
      sourceId?: unknown
      clickId?: unknown
      clickToken?: unknown
    } | null
    if (record?.sourceId === audienceSourceId) {
      if (typeof record.clickId === 'string') clickId = record.clickId
      if (typeof record.clickToken === 'string') storedToken = record.clickToken
    }
  } catch {
    // a damaged record only loses the click id; the source still gets the credit
  }
  const clickToken = urlToken ?? storedToken
  return { audienceSourceId, ...(clickId ? { clickId } : {}), ...(clickToken ? { clickToken } : {}) }
}
