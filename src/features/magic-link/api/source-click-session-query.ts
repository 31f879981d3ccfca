/**
 * The click session behind a campaign link `/campaign/{code}/{campaignId}`: the click this browser session
 * already made on `code`, or a new one recorded by the same one-call `track_audience_source_click`.
 * A reload or a second campaign page of the same source reuses the click, so views add up on one session.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { collectDeviceInfo, getFingerprint } from '@/lib/device-info'
import { readLocal, storageKeys } from '@/lib/storage-keys'
import { isSourceAwaitingReview } from '@/lib/source-review'
import { magicLinkKeys } from '../keys'
import { readSessionClickId, storeAttribution } from '../lib/attribution-storage'
import { trackAudienceSourceClick } from './audience-source-click-request'

/** A click to attribute to, a source still waiting for review (its link has not started working), or nothing. */
export type SourceClickSession =
  | { pendingReview: false; sourceId: string; clickId: string; sourceName: string | null }
  | { pendingReview: true }
  | null

export async function getSourceClickSession(code: string): Promise<SourceClickSession> {
  const existing = readSessionClickId(code)
  const storedSourceId = readLocal(storageKeys.audienceSourceId)
  if (existing && storedSourceId) {
    return {
      pendingReview: false,
      sourceId: storedSourceId,
      clickId: existing,
      sourceName: readLocal(storageKeys.sourceName),
    }
  }
  const result = await trackAudienceSourceClick({
    unifiedCode: code,
    deviceInfo: await collectDeviceInfo(getFingerprint),
  })
  if (result.status === 'inactive' && isSourceAwaitingReview(result.sourceStatus)) return { pendingReview: true }
  if (result.status !== 'valid' || !result.sourceId || !result.clickId) return null
  storeAttribution({
    sourceId: result.sourceId,
    sourceName: result.sourceName,
    unifiedCode: result.unifiedCode ?? code,
    clickId: result.clickId,
  })
  return { pendingReview: false, sourceId: result.sourceId, clickId: result.clickId, sourceName: result.sourceName }
}

export const sourceClickSessionQueryOptions = (code: string) =>
  queryOptions({
    queryKey: magicLinkKeys.clickSession(code),
    queryFn: () => getSourceClickSession(code),
    // A click is recorded once per visit: never refetch it behind the visitor's back.
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  })

export const useSourceClickSessionQuery = (code: string | undefined) =>
  useQuery({ ...sourceClickSessionQueryOptions(code ?? ''), enabled: Boolean(code) })
