/**
 * What a deposit request may contain: an amount in credits (1 credit = 1 US dollar), a JSON number within the
 * deposit limits of ../_shared/rules/deposit.ts, the module the deposit dialog checks with too: same bounds,
 * same words. This is the check that counts.
 */
import { HttpError } from '../_shared/http.ts'
import { parseDepositAmount } from '../_shared/rules/deposit.ts'

/** The amount in whole cents, as Stripe wants it, or a 400 saying what to change. */
export function parseDepositCents(value: unknown): number {
  const parsed = parseDepositAmount(value)
  if ('error' in parsed) throw new HttpError(400, parsed.error)
  return parsed.cents
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
