/**
 * `track_audience_source_click` with the platform's `fetch` and nothing else: what the `/earn` fast path sends
 * before any of the app (React, router, Supabase client) has loaded. Same request as `supabase.rpc(…)`:
 * POST /rest/v1/rpc/<fn> with the named arguments, the apikey, and the visitor's token or the anon key.
 */
import { env } from '@/config/env'
import { storedAccessToken } from '@/lib/auth-storage-key'
import { ClickTrackingError, parseClickResult, type ClickResult, type TrackClickVariables } from './click-result'

export async function postTrackClick({ unifiedCode, deviceInfo }: TrackClickVariables): Promise<ClickResult> {
  const apiUrl = env.VITE_SUPABASE_URL.replace(/\/+$/, '')
  const anonKey = env.VITE_SUPABASE_ANON_KEY
  let response: Response
  try {
    response = await fetch(`${apiUrl}/rest/v1/rpc/track_audience_source_click`, {
      method: 'POST',
      headers: {
        apikey: anonKey,
        Authorization: `Bearer ${storedAccessToken(apiUrl) ?? anonKey}`,
        'Content-Type': 'application/json',
        'X-Client-Info': 'growletter-web',
      },
      body: JSON.stringify({ unified_code: unifiedCode, device_info: deviceInfo }),
    })
  } catch (error) {
    throw new ClickTrackingError((error as Error).message)
  }
  const body: unknown = await response.json().catch(() => null)
  if (!response.ok) {
    const message = (body as { message?: unknown } | null)?.message
    throw new ClickTrackingError(typeof message === 'string' ? message : `Click tracking failed (${response.status})`)
  }
  return parseClickResult(body)
}
