/**
 * `track_audience_source_click` with the platform's `fetch` and nothing else: what the `/earn` fast path sends
 * before any of the app (React, router, Supabase client) has loaded. Same request as `supabase.rpc(…)`:
 * POST /rest/v1/rpc/<fn> with the named arguments, the apikey, and the visitor's token or the key itself.
 */
import { env } from '@/config/env'
import { storedAccessToken } from '@/lib/auth-storage-key'
import { ClickTrackingError, parseClickResult, type ClickResult, type TrackClickVariables } from './click-result'

/** POST /rest/v1/rpc/<fn> as supabase-js sends it, with the visitor's token or the publishable (or anon) key. */
export function postRpc(fn: string, args: Record<string, unknown>, init: RequestInit = {}) {
  const apiUrl = env.VITE_SUPABASE_URL.replace(/\/+$/, '')
  const apiKey = env.supabaseKey
  return fetch(`${apiUrl}/rest/v1/rpc/${fn}`, {
    ...init,
    method: 'POST',
    headers: {
      apikey: apiKey,
      Authorization: `Bearer ${storedAccessToken(apiUrl) ?? apiKey}`,
      'Content-Type': 'application/json',
      'X-Client-Info': 'growletter-web',
    },
    body: JSON.stringify(args),
  })
}

export async function postTrackClick({ unifiedCode, deviceInfo }: TrackClickVariables): Promise<ClickResult> {
  let response: Response
  try {
    response = await postRpc('track_audience_source_click', { unified_code: unifiedCode, device_info: deviceInfo })
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

/**
 * `attach_click_fingerprint`: the fingerprint of a click the fast path sent before it was computed. Sent with
 * `keepalive`, so a visitor who closes the tab right after landing still has it recorded. Never throws: a
 * click without its fingerprint is still a click.
 */
export async function postClickFingerprint(clickId: string, fingerprint: string): Promise<boolean> {
  try {
    const response = await postRpc(
      'attach_click_fingerprint',
      { p_click_id: clickId, p_fingerprint: fingerprint },
      { keepalive: true },
    )
    return response.ok && (await response.json()) === true
  } catch {
    return false
  }
}
