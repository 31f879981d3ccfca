/**
 * The one backend call of a magic link (SPEC §7 `track_audience_source_click`): the database resolves the code
 * (unified code, legacy magic/{code}, id), checks the status and records the click in one round trip.
 */
import { supabase } from '@/lib/supabase'
import { ClickTrackingError, parseClickResult, type ClickResult, type TrackClickVariables } from './click-result'

export async function trackAudienceSourceClick({ unifiedCode, deviceInfo }: TrackClickVariables): Promise<ClickResult> {
  const { data, error } = await supabase.rpc('track_audience_source_click', {
    unified_code: unifiedCode,
    device_info: deviceInfo,
  })
  if (error) throw new ClickTrackingError(error.message)
  return parseClickResult(data)
}
