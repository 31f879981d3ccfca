/**
 * Links from auth emails land with the session in the URL hash
 * (`#access_token=…&refresh_token=…&type=signup|recovery`) or an error (`#error=…&error_description=…`).
 * supabase-js is told not to read it (SPEC §9: session detection in URL off), so the pages that links land
 * on parse it here and hand the tokens to `setSession` themselves.
 */
export type AuthHash =
  | { kind: 'session'; accessToken: string; refreshToken: string; type: string | null; issuedAt: number | null }
  | { kind: 'error'; code: string | null; description: string }
  | { kind: 'none' }

export function parseAuthHash(hash: string): AuthHash {
  const params = new URLSearchParams(hash.replace(/^#/, ''))
  const error = params.get('error') ?? params.get('error_code')
  if (error) {
    const description = params.get('error_description') ?? error
    return { kind: 'error', code: params.get('error_code') ?? error, description: description.replace(/\+/g, ' ') }
  }
  const accessToken = params.get('access_token')
  const refreshToken = params.get('refresh_token')
  if (accessToken && refreshToken) {
    const expiresAt = Number(params.get('expires_at'))
    const expiresIn = Number(params.get('expires_in'))
    const issuedAt = expiresAt && expiresIn ? expiresAt - expiresIn : null
    return { kind: 'session', accessToken, refreshToken, type: params.get('type'), issuedAt }
  }
  return { kind: 'none' }
}

/** SPEC §9: a link whose session was issued more than 120 s ago deserves a warning (clock skew, stale tab). */
export const STALE_URL_SESSION_SECONDS = 120

export function isStaleUrlSession(hash: Extract<AuthHash, { kind: 'session' }>, nowSeconds = Date.now() / 1000) {
  return hash.issuedAt !== null && nowSeconds - hash.issuedAt > STALE_URL_SESSION_SECONDS
}

/** Removes the tokens from the address bar and history without a navigation. */
export function clearAuthHash() {
  const { pathname, search } = window.location
  window.history.replaceState(window.history.state, '', pathname + search)
}
