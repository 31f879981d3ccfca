/**
 * The Stripe client the payment and payout functions use. With STRIPE_SECRET_KEY set it talks to Stripe. Without it,
 * under the embedded backend only (GROWLETTER_LOCAL=1), the same client talks to its test checkout, which answers
 * Stripe's API under `${SUPABASE_URL}/checkout/v1/…` and signs its events with the local STRIPE_WEBHOOK_SECRET: every
 * line of the functions runs the same way in both modes. Without it anywhere else (hosted Supabase), the function
 * answers 500 naming the secret (requireStripe) rather than calling a checkout URL that does not exist there.
 */
import Stripe from 'npm:stripe@^23'
import { isLocalBackend, MissingSecret, requireEnv } from './env.ts'

export { Stripe }

/** Deno has no Node crypto: the package's Web Crypto provider verifies signatures (asynchronously). */
export const cryptoProvider = Stripe.createSubtleCryptoProvider()

/** No secret key under the embedded backend: payments go to the local test checkout, not to Stripe. */
export function isLocalCheckout(): boolean {
  return !Deno.env.get('STRIPE_SECRET_KEY') && isLocalBackend()
}

/** At the start of a function that calls Stripe: a 500 naming STRIPE_SECRET_KEY when nothing can answer for Stripe. */
export function requireStripe(): void {
  if (!Deno.env.get('STRIPE_SECRET_KEY') && !isLocalBackend()) throw new MissingSecret('STRIPE_SECRET_KEY')
}

// A key the local checkout accepts; it is never sent anywhere else.
const LOCAL_SECRET_KEY = 'sk_test_local_checkout'

let client: Stripe | undefined

export function stripeClient(): Stripe {
  if (client) return client
  const secretKey = Deno.env.get('STRIPE_SECRET_KEY')
  if (secretKey) {
    client = new Stripe(secretKey, { httpClient: Stripe.createFetchHttpClient(), maxNetworkRetries: 2 })
    return client
  }
  requireStripe()
  const api = new URL(requireEnv('SUPABASE_URL'))
  // The package has no base-path setting: its requests to /v1/… are sent to /checkout/v1/… instead.
  const localFetch: typeof fetch = (input, init) => {
    const url = new URL(String(input))
    url.pathname = `/checkout${url.pathname}`
    return fetch(url, init)
  }
  client = new Stripe(LOCAL_SECRET_KEY, {
    host: api.hostname,
    port: api.port || (api.protocol === 'https:' ? '443' : '80'),
    protocol: api.protocol === 'https:' ? 'https' : 'http',
    httpClient: Stripe.createFetchHttpClient(localFetch),
    maxNetworkRetries: 2,
    telemetry: false,
  })
  return client
}
