/** Where Stripe (Checkout, Connect onboarding) sends the browser back to the SPA. */
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
