/**
 * The timestamp of a `Stripe-Signature` header (`t=…,v1=…`), bounded both ways. The stripe package rejects
 * a signature older than its tolerance but accepts one dated any time in the future, so a signed event whose
 * clock was set a year ahead would verify for a year. The webhook refuses both before it verifies.
 */
export const SIGNATURE_TOLERANCE_SECONDS = 300

/** null when the header's timestamp is within the tolerance of `nowSeconds` either way, else why not. */
export function signatureTimestampProblem(
  header: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  tolerance = SIGNATURE_TOLERANCE_SECONDS,
): string | null {
  const stamps = header
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.startsWith('t='))
    .map((part) => part.slice(2))
  if (stamps.length !== 1 || !/^\d{1,12}$/.test(stamps[0]!)) return 'no single timestamp'
  const t = Number(stamps[0])
  if (t > nowSeconds + tolerance) return 'timestamp in the future'
  if (t < nowSeconds - tolerance) return 'timestamp too old'
  return null
}
