/**
 * What `track_audience_source_click` answers (SPEC §7: click_id, source_id, …), read without any client
 * library: the app's mutation and the `/earn` fast path (which loads no React and no Supabase client) share it.
 */
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
  /** The signed click token of a counted click (`ct=…` in the URL the link lands on), else null. */
  clickToken: string | null
}

/** `channel`: where the click came from when not a plain link (link_clicks.channel). */
export type TrackClickVariables = {
  unifiedCode: string
  deviceInfo: (DeviceInfo | FallbackDeviceInfo) & { channel?: 'email' | 'embed' }
}

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
    clickToken: str(row.click_token),
  }
}
