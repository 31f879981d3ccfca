/**
 * What a deposit request may contain: an amount in credits (1 credit = 1 US dollar), a JSON number from
 * 10 to 10,000 with at most two decimals. The deposit dialog checks the same rules with the same words
 * before calling; this is the check that counts.
 */
import { HttpError } from '../_shared/http.ts'

export const MIN_DEPOSIT = 10
export const MAX_DEPOSIT = 10_000

export const amountMessages = {
  missing: 'Enter an amount between 10 and 10,000 credits.',
  notNumber: 'The amount must be a number of credits, for example 25 or 25.50.',
  tooSmall: 'The minimum deposit is 10 credits.',
  tooLarge: 'The maximum deposit is 10,000 credits per payment.',
  decimals: 'Use at most two decimals, for example 25.50.',
} as const

/** The amount in whole cents, as Stripe wants it, or a 400 saying what to change. */
export function parseDepositCents(value: unknown): number {
  if (value === undefined || value === null || value === '') throw new HttpError(400, amountMessages.missing)
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new HttpError(400, amountMessages.notNumber)
  if (value < MIN_DEPOSIT) throw new HttpError(400, amountMessages.tooSmall)
  if (value > MAX_DEPOSIT) throw new HttpError(400, amountMessages.tooLarge)
  const cents = Math.round(value * 100)
  // 19.99 * 100 is 1998.9999999999998: a float's noise is far below half a cent, a third decimal is not.
  if (Math.abs(cents - value * 100) > 1e-6) throw new HttpError(400, amountMessages.decimals)
  return cents
}

/**
 * Where Stripe sends the browser back: the origin the SPA called from when it is one we serve (SITE_URL,
 * ALLOWED_RETURN_ORIGINS, or a loopback address in local development), else SITE_URL.
 */
export function returnOrigin(req: Request, siteUrl: string, local: boolean): string {
  const site = new URL(siteUrl).origin
  const origin = req.headers.get('origin')
  if (!origin) return site
  let parsed: URL
  try {
    parsed = new URL(origin)
  } catch {
    return site
  }
  const allowed = new Set(
    [site, ...(Deno.env.get('ALLOWED_RETURN_ORIGINS') ?? '').split(',')].map((o) => o.trim()).filter(Boolean),
  )
  if (allowed.has(parsed.origin)) return parsed.origin
  const loopback = parsed.hostname === '127.0.0.1' || parsed.hostname === 'localhost'
  if (local && loopback && parsed.protocol === 'http:') return parsed.origin
  return site
}
