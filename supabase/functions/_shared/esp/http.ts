/** The one request path every ESP client uses: JSON in and out, failures classified the same way. */
import type { EspFailure } from './types.ts'

export type JsonAnswer = { ok: true; status: number; body: unknown }

/**
 * Retry-After is either seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable.
 * A date in the past means "now" (0).
 */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined
  const trimmed = header.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/**
 * `RateLimit-Reset`, which beehiiv sends instead of Retry-After, as "the time (in seconds since the Unix epoch) at
 * which the current period will reset" (https://developers.beehiiv.com/welcome/rate-limiting); the IETF draft's
 * form, seconds from now, is read too (a number too small to be an epoch time).
 */
export function rateLimitResetMs(header: string | null, now = Date.now()): number | undefined {
  if (!header || !/^\d+$/.test(header.trim())) return undefined
  const value = Number(header.trim())
  return value > 1_000_000_000 ? Math.max(0, value * 1000 - now) : value * 1000
}

/**
 * 429 and 5xx are the provider asking us to come back (rate limit, outage): retryable. Any other 4xx is a
 * rejection of this request, final, with the provider's own message (`describe` reads it from the body).
 */
export function failureOf(
  status: number,
  headers: Headers,
  body: unknown,
  describe: (body: unknown) => string | undefined,
): EspFailure {
  const retryable = status === 429 || status >= 500
  const message =
    describe(body) ?? (typeof body === 'string' && body.trim() ? body.trim().slice(0, 500) : `HTTP ${status}`)
  const after = retryable
    ? (retryAfterMs(headers.get('retry-after')) ?? rateLimitResetMs(headers.get('ratelimit-reset')))
    : undefined
  return { ok: false, retryable, status, message, ...(after !== undefined ? { retryAfterMs: after } : {}) }
}

export async function requestJson(
  fetchImpl: typeof fetch,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: unknown },
  describe: (body: unknown) => string | undefined,
): Promise<JsonAnswer | EspFailure> {
  let response: Response
  try {
    response = await fetchImpl(url, {
      method: init.method,
      headers: {
        accept: 'application/json',
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    })
  } catch (error) {
    // No answer at all (DNS, refused, reset): the provider may be fine a minute later.
    return {
      ok: false,
      retryable: true,
      status: 0,
      message: `Could not reach the provider: ${(error as Error)?.message ?? String(error)}`,
    }
  }
  const text = await response.text()
  let body: unknown = text
  if (text) {
    try {
      body = JSON.parse(text)
    } catch {
      // Not JSON (an HTML error page from a proxy, say): kept as text for the message.
    }
  } else body = null
  if (!response.ok) return failureOf(response.status, response.headers, body, describe)
  return { ok: true, status: response.status, body }
}

/** A plain object's field, or undefined (provider bodies are untrusted JSON). */
export function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined
}

export const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined)
export const num = (value: unknown): number | undefined => {
  const n = typeof value === 'string' ? Number(value) : value
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined
}

/**
 * The confirmation time as a Date, or a final failure naming the bad value: a scheduled delivery must record
 * why one subscriber could not go, not crash the batch. No request is sent for it.
 */
export function confirmedAtOf(value: Date | string): Date | EspFailure {
  const date = value instanceof Date ? value : new Date(value)
  return Number.isNaN(date.getTime())
    ? {
        ok: false,
        retryable: false,
        status: 0,
        message: `The confirmation time ${JSON.stringify(String(value))} is not a date.`,
      }
    : date
}

/** A removal's answer: done, or done already when the provider no longer has the subscriber (404). */
export function removedOf(answer: JsonAnswer | EspFailure): { ok: true; alreadyGone: boolean } | EspFailure {
  if (answer.ok) return { ok: true, alreadyGone: false }
  return answer.status === 404 ? { ok: true, alreadyGone: true } : answer
}

export const trimSlash = (url: string) => url.replace(/\/+$/, '')
