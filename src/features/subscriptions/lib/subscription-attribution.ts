/** The attribution a magic link left in local storage (SPEC §3), sent along with a subscription. */
import { readLocal, storageKeys } from '@/lib/storage-keys'

export type SubscriptionAttribution = { audienceSourceId?: string; clickId?: string }

export function readSubscriptionAttribution(): SubscriptionAttribution {
  const audienceSourceId = readLocal(storageKeys.audienceSourceId) || undefined
  if (!audienceSourceId) return {}
  let clickId: string | undefined
  try {
    const record = JSON.parse(readLocal(storageKeys.sourceAttribution) ?? 'null') as {
      sourceId?: unknown
      clickId?: unknown
    } | null
    if (record?.sourceId === audienceSourceId && typeof record.clickId === 'string') clickId = record.clickId
  } catch {
    // a damaged record only loses the click id; the source still gets the credit
  }
  return clickId ? { audienceSourceId, clickId } : { audienceSourceId }
}
