/**
 * Where the session of the auth client is kept in local storage: the key supabase-js derives from the API
 * URL, so a session survives a switch between clients. Also read by code that must not load the client
 * (the `/earn` fast path) to send a signed-in visitor's token.
 */
export const authStorageKey = (apiUrl: string) => `sb-${new URL(apiUrl).hostname.split('.')[0]}-auth-token`

/** The stored session's access token while it is valid, else null (then the anon key speaks). */
export function storedAccessToken(apiUrl: string, now = Date.now()): string | null {
  try {
    const stored = JSON.parse(window.localStorage.getItem(authStorageKey(apiUrl)) ?? 'null') as {
      access_token?: unknown
      expires_at?: unknown
    } | null
    if (typeof stored?.access_token !== 'string' || typeof stored.expires_at !== 'number') return null
    // A token about to expire would fail on the way; the anon key is the safe answer then.
    return stored.expires_at * 1000 > now + 10_000 ? stored.access_token : null
  } catch {
    return null
  }
}
