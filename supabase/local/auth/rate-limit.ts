/**
 * Sliding-window rate limits per client IP and per email address, over the 5-minute window
 * supabase/config.toml documents. Kept in memory: limits protect one running backend, and a restart
 * resetting them is what a developer expects.
 */
import { errors } from './errors'

const WINDOW_MS = 5 * 60 * 1000

export class RateLimiter {
  private readonly hits = new Map<string, number[]>()

  /** Records one hit for each key; throws 429 when any key is over `limit` in the window. */
  take(bucket: string, keys: Array<string | undefined>, limit: number, kind: 'request' | 'email' = 'request') {
    const now = Date.now()
    const live = keys.filter((k): k is string => Boolean(k)).map((k) => `${bucket}:${k.toLowerCase()}`)
    for (const key of live) {
      const recent = (this.hits.get(key) ?? []).filter((t) => now - t < WINDOW_MS)
      this.hits.set(key, recent)
      if (recent.length >= limit) throw kind === 'email' ? errors.emailRateLimited() : errors.rateLimited()
    }
    for (const key of live) this.hits.get(key)!.push(now)
    if (this.hits.size > 50_000) this.sweep(now)
  }

  private sweep(now: number) {
    for (const [key, times] of this.hits) if (!times.some((t) => now - t < WINDOW_MS)) this.hits.delete(key)
  }
}
