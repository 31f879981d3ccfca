/**
 * Fixed-window rate limiting kept in memory. Locally one Deno isolate serves each function, so this is
 * exact. In production a function runs in several short-lived isolates, each with its own memory: there
 * the limits are a best-effort first line and should be backed by a table (a `rate_limits` row per key
 * and window, incremented with an upsert) when abuse matters more than one round trip.
 */
export type RateLimit = { limit: number; windowMs: number }
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number }

export function createRateLimiter({ limit, windowMs }: RateLimit, now: () => number = Date.now) {
  const windows = new Map<string, { start: number; count: number }>()

  function sweep(at: number) {
    // Bounded memory: forget windows that have ended once the map grows.
    if (windows.size < 10_000) return
    for (const [key, w] of windows) if (at - w.start >= windowMs) windows.delete(key)
  }

  return {
    /** Counts one attempt for `key` and says whether it is within the limit. */
    hit(key: string): RateDecision {
      const at = now()
      sweep(at)
      const current = windows.get(key)
      if (!current || at - current.start >= windowMs) {
        windows.set(key, { start: at, count: 1 })
        return { allowed: true }
      }
      current.count += 1
      if (current.count <= limit) return { allowed: true }
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((current.start + windowMs - at) / 1000)) }
    },
  }
}

export const MINUTE = 60_000
export const HOUR = 60 * MINUTE
