/**
 * The one backend call of a magic link (SPEC §7 `track_audience_source_click`): the database resolves the code
 * (unified code, legacy magic/{code}, id), checks the status and records the click in one round trip.
 */
import { useMutation } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import type { DeviceInfo, FallbackDeviceInfo } from '@/lib/device-info'

export type ClickStatus = 'valid' | 'inactive' | 'not_found'

export type ClickResult = {
  clickId: string | null
  sourceId: string | null
  sourceName: string | null
  unifiedCode: string | null
  status: ClickStatus
  sourceStatus: string | null
  counted: boolean
  notCountedReason: string | null
}

export type TrackClickVariables = { unifiedCode: string; deviceInfo: DeviceInfo | FallbackDeviceInfo }

/** Raised when the call itself failed (network, database): the source is then unknown, not unavailable. */
export class ClickTrackingError extends Error {
  name = 'ClickTrackingError'
}

const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null)

/** Reads the function's jsonb answer; anything unrecognisable is an unexpected error (it throws). */
export function parseClickResult(data: unknown): ClickResult {
  if (!data || typeof data !== 'object') throw new Error('Unexpected answer from click tracking')
  const row = data as Record<string, unknown>
  const status = row.status
  if (status !== 'valid' && status !== 'inactive' && status !== 'not_found') {
    throw new Error('Unexpected click status')
  }
  return {
    clickId: str(row.click_id),
    sourceId: str(row.source_id),
    sourceName: str(row.source_name),
    unifiedCode: str(row.unified_code),
    status,
    sourceStatus: str(row.source_status),
    counted: row.counted === true,
    notCountedReason: str(row.not_counted_reason),
  }
}

export async function trackAudienceSourceClick({ unifiedCode, deviceInfo }: TrackClickVariables): Promise<ClickResult> {
  const { data, error } = await supabase.rpc('track_audience_source_click', {
    unified_code: unifiedCode,
    device_info: deviceInfo,
  })
  if (error) throw new ClickTrackingError(error.message)
  return parseClickResult(data)
}

export const useAudienceSourceClickMutation = () => useMutation({ mutationFn: trackAudienceSourceClick })
