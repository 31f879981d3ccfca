/**
 * The first checks of an advertiser's webhook URL: given, at most 2,048 characters, a full URL, https. The
 * webhooks form (src/features/subscribers) checks them before saving; the database's `webhook_url_problem`
 * (run by a trigger on `webhook_endpoints`) checks the same with the same words, and more (credentials, localhost,
 * private addresses and names: see ../public-address.ts, which deliver-webhooks uses again at send time). The
 * bounds and words are pinned to the database by supabase/tests/rule-bounds.test.ts.
 *
 * Pure TypeScript with no imports: Deno (the functions) and Vite (the SPA) both load it.
 */
export const MAX_WEBHOOK_URL_LENGTH = 2048

export const WEBHOOK_URL_MESSAGES = {
  missing: 'Enter the URL that should receive the webhooks',
  // SQL writes this bound without a thousands separator.
  tooLong: `The URL must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`,
  notFull: 'Enter a full URL, such as https://example.com/webhooks',
  notHttps: 'The URL must start with https://',
} as const

/**
 * What is wrong with a webhook URL at first sight, or null. Plain http to 127.0.0.1 passes here: the database
 * accepts it only where local development allows loopback webhooks, and says so itself.
 */
export function webhookUrlProblem(url: string): string | null {
  const value = url.trim()
  if (!value) return WEBHOOK_URL_MESSAGES.missing
  if (url.length > MAX_WEBHOOK_URL_LENGTH) return WEBHOOK_URL_MESSAGES.tooLong
  let parsed: URL
  try {
    parsed = new URL(value)
  } catch {
    return WEBHOOK_URL_MESSAGES.notFull
  }
  if (parsed.protocol === 'https:') return null
  return parsed.protocol === 'http:' && parsed.hostname === '127.0.0.1' ? null : WEBHOOK_URL_MESSAGES.notHttps
}
