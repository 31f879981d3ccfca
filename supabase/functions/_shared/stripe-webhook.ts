/**
 * The signed event of a Stripe webhook request, verified as payments-webhook and connect-webhook both need it: the
 * `Stripe-Signature` header checked with the stripe package's own asynchronous verification (Web Crypto) against the
 * endpoint's signing secret, within 5 minutes either way (the package checks only the past). Anything else is an
 * HttpError 400 that changes nothing; a missing secret is a 500 that names it (env.ts). Verifying needs no API key:
 * the package's static `Stripe.webhooks` checks the signature. A function that two Stripe endpoints call (each signs
 * with its own secret) names both secrets: either one verifies, and at least one must be set.
 */
import { envVar, requireSecret } from './env.ts'
import { HttpError } from './http.ts'
import { cryptoProvider, Stripe } from './stripe.ts'
import { SIGNATURE_TOLERANCE_SECONDS, signatureTimestampProblem } from './stripe-signature.ts'

export async function verifiedStripeEvent(
  req: Request,
  secretName: string | [string, ...string[]],
  functionName: string,
): Promise<Stripe.Event> {
  if (req.method !== 'POST') throw new HttpError(405, 'Method not allowed', { Allow: 'POST' })
  // Stripe's own signing secrets in production; the embedded backend sets the one its stand-ins sign with.
  const [first, ...others] = typeof secretName === 'string' ? [secretName] : secretName
  const extra = others.map((name) => envVar(name)?.trim()).filter((value): value is string => !!value)
  const secrets = extra.length
    ? [envVar(first)?.trim(), ...extra].filter((v): v is string => !!v)
    : [requireSecret(first)]
  const signature = req.headers.get('stripe-signature')
  if (!signature) throw new HttpError(400, 'Missing Stripe-Signature header')
  // The signature covers the exact bytes: read the raw body, never a re-serialised one.
  const payload = await req.text()
  const timing = signatureTimestampProblem(signature)
  if (timing) {
    console.warn(`${functionName}: rejected: ${timing}`)
    throw new HttpError(400, 'Invalid Stripe signature')
  }
  let problem = ''
  for (const secret of secrets) {
    try {
      return await Stripe.webhooks.constructEventAsync(
        payload,
        signature,
        secret,
        SIGNATURE_TOLERANCE_SECONDS,
        cryptoProvider,
      )
    } catch (error) {
      problem = (error as Error).message.split('\n')[0]!
    }
  }
  console.warn(`${functionName}: rejected: ${problem}`)
  throw new HttpError(400, 'Invalid Stripe signature')
}
