/**
 * The Stripe client both payment functions use. With STRIPE_SECRET_KEY set it talks to Stripe. Without it
 * (local development) the same client talks to the embedded backend's test checkout, which answers
 * Stripe's API under `${SUPABASE_URL}/checkout/v1/…` and signs its events with the local
 * STRIPE_WEBHOOK_SECRET: every line of the functions runs the same way in both modes.
 */
import Stripe from 'npm:stripe@^23'
import { requireEnv } from './env.ts'

export { Stripe }

/** Deno has no Node crypto: the package's Web Crypto provider verifies signatures (asynchronously). */
export const cryptoProvider = Stripe.createSubtleCryptoProvider()

/** No secret key: payments go to the local test checkout, not to Stripe. */
export function isLocalCheckout(): boolean {
  return !Deno.env.get('STRIPE_SECRET_KEY')
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
