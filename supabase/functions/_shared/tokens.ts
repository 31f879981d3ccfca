/**
 * Confirmation tokens: 32 random bytes, base64url, sent only in the email; the database keeps only their
 * sha256, so a leaked table confirms nothing.
 */
export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

/**
 * Joins the tokens of one subscribe request in its "confirm all" link (`token=a.b.c`): base64url never contains
 * a dot, so verify-subscription splits them back without ambiguity.
 */
export const TOKEN_SEPARATOR = '.'
/** The most tokens one link carries: the subscribe function's MAX_NEWSLETTERS per request. */
export const MAX_TOKENS_PER_LINK = 10

export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}
