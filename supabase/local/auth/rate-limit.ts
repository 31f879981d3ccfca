/**
 * Sliding-window rate limits keyed by the gateway's client IP (never a header the client wrote), over
 * the 5-minute window supabase/config.toml documents, or a shorter one (MFA: per minute, as GoTrue).
 * Kept in memory: limits protect one running backend, and a restart resetting them is what a developer
 * expects.
 */
import { errors } from './errors'

export const WINDOW_MS = 5 * 60 * 1000
export const MINUTE_MS = 60 * 1000

/**
 * The key of an address seen from one IP. Sign-in limits use it instead of the address alone: failing
 * logins for someone's email from one place must not lock that person out everywhere (a per-address
 * bucket would let anyone do that to anyone).
 */
export const fromIp = (ip: string, email: string) => `${ip} ${email.trim().toLowerCase()}`

export class RateLimiter {
  private readonly hits = new Map<string, number[]>()

  /** Records one hit for each key; throws 429 when any key is over `limit` in the window (≤ 5 minutes). */
  take(
    bucket: string,
    keys: Array<string | undefined>,
    limit: number,
    kind: 'request' | 'email' = 'request',
    windowMs = WINDOW_MS,
  ) {
    const now = Date.now()
    const live = keys.filter((k): k is string => Boolean(k)).map((k) => `${bucket}:${k.toLowerCase()}`)
    for (const key of live) {
      const recent = (this.hits.get(key) ?? []).filter((t) => now - t < windowMs)
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
