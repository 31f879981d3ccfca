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

/**
 * The inbox an address delivers to, for per-inbox email limits: lower case, no `+tag` (most providers
 * deliver `ann+x@` to `ann@`), and Gmail's own folding (dots in the local part do not count,
 * googlemail.com is gmail.com). Several accounts may share an inbox; they share its allowance too.
 */
export function inboxOf(email: string): string {
  const address = email.trim().toLowerCase()
  const at = address.lastIndexOf('@')
  if (at < 0) return address
  let local = address.slice(0, at).replace(/\+.*$/, '')
  let domain = address.slice(at + 1)
  if (domain === 'googlemail.com') domain = 'gmail.com'
  if (domain === 'gmail.com') local = local.replace(/\./g, '')
  return `${local}@${domain}`
}

/** Failed passwords for one account are counted over this window (see RateLimiter.passwordFailed). */
export const ACCOUNT_WINDOW_MS = 15 * MINUTE_MS
/** How many of one address's failures count against an account: one address alone cannot lock it. */
export const ACCOUNT_FAILURES_PER_IP = 5
/** Addresses an account signed in from are remembered this long; they pass its account-wide limit. */
const KNOWN_IP_MS = 30 * 24 * 60 * MINUTE_MS

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

  /** Hits of `bucket:key` in the last `windowMs`, without recording one. */
  count(bucket: string, key: string, windowMs = WINDOW_MS): number {
    const now = Date.now()
    const full = `${bucket}:${key.toLowerCase()}`
    const recent = (this.hits.get(full) ?? []).filter((t) => now - t < windowMs)
    this.hits.set(full, recent)
    return recent.length
  }

  private record(bucket: string, key: string) {
    const full = `${bucket}:${key.toLowerCase()}`
    const times = this.hits.get(full) ?? []
    times.push(Date.now())
    this.hits.set(full, times)
  }

  /**
   * Per-account password guesses from many addresses. Each failure counts against the account, but at
   * most ACCOUNT_FAILURES_PER_IP from any one address in the window, so failing from one place (the first
   * round's lockout attack) never locks the account; a guesser spread over many addresses does. At the
   * limit, addresses the account signed in from before still pass (the owner keeps signing in at home);
   * new ones wait until the window has moved on. Counted for unknown addresses alike, so it tells nothing.
   */
  passwordFailed(account: string, ip: string) {
    const perIp = `${ip} ${account}`
    if (this.count('password-failures-ip', perIp, ACCOUNT_WINDOW_MS) < ACCOUNT_FAILURES_PER_IP) {
      this.record('password-failures', account)
    }
    this.record('password-failures-ip', perIp)
  }

  /** True when `ip` may not try a password for `account` now (see passwordFailed). */
  accountLocked(account: string, ip: string, limit: number): boolean {
    if (this.count('password-failures', account, ACCOUNT_WINDOW_MS) < limit) return false
    const seen = this.knownIps.get(account.toLowerCase())?.get(ip)
    return !(seen !== undefined && Date.now() - seen < KNOWN_IP_MS)
  }

  /** Remembers that `account` signed in from `ip`. */
  signedIn(account: string, ip: string) {
    const key = account.toLowerCase()
    const ips = this.knownIps.get(key) ?? new Map<string, number>()
    ips.set(ip, Date.now())
    if (ips.size > 100) ips.delete(ips.keys().next().value as string)
    this.knownIps.set(key, ips)
  }

  private readonly knownIps = new Map<string, Map<string, number>>()

  /**
   * Seconds left of a cooldown started by `startCooldown(key)` `seconds` ago, else 0: max_frequency for emails
   * that are withheld (mailers.ts withholdEmail), whose sent-at time is in no database row.
   */
  cooldownLeft(key: string, seconds: number): number {
    const started = this.cooldowns.get(key.toLowerCase())
    if (started === undefined) return 0
    const left = seconds - (Date.now() - started) / 1000
    return left > 0 ? Math.ceil(left) : 0
  }

  startCooldown(key: string) {
    const now = Date.now()
    if (this.cooldowns.size > 50_000) {
      for (const [k, t] of this.cooldowns) if (now - t > KNOWN_IP_MS) this.cooldowns.delete(k)
    }
    this.cooldowns.set(key.toLowerCase(), now)
  }

  private readonly cooldowns = new Map<string, number>()

  private sweep(now: number) {
    for (const [key, times] of this.hits) if (!times.some((t) => now - t < ACCOUNT_WINDOW_MS)) this.hits.delete(key)
  }
}
