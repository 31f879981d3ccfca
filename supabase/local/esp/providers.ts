/**
 * The four providers as the sandbox plays them: the documented endpoints the clients in
 * supabase/functions/_shared/esp use, each provider's auth header and its answer and error shapes (see the
 * docs cited in each client). Only demo keys are accepted (ESP_SANDBOX_KEYS); any other key gets the
 * provider's own 401. Addresses at the reserved `.invalid` TLD (RFC 2606) are refused with the provider's
 * validation error, so a developer or test can provoke a final rejection.
 */
import type { ApiResponse } from '../context'
import { beehiiv, beehiivError } from './beehiiv'
import type { ProviderAnswer, ProviderRequest, SandboxProvider } from './common'
import { kit, kitError } from './kit'
import { mailchimp, problem } from './mailchimp'
import { mailerlite, mlError } from './mailerlite'
import type { EspStore } from './store'

export * from './common'

export const PROVIDER_HANDLERS: Record<SandboxProvider, (req: ProviderRequest, store: EspStore) => Promise<ProviderAnswer>> = {
  beehiiv,
  kit,
  mailchimp,
  mailerlite,
}

/** A forced failure in the provider's shape, with Retry-After on 429 as the providers send it. */
export function forcedFailure(provider: SandboxProvider, status: number, retryAfterSeconds: number | undefined): ApiResponse {
  const headers: Record<string, string> = retryAfterSeconds !== undefined ? { 'retry-after': String(retryAfterSeconds) } : {}
  const message = status === 429 ? 'Too many requests (forced by the local ESP sandbox)' : 'Internal server error (forced by the local ESP sandbox)'
  const answer =
    provider === 'beehiiv'
      ? beehiivError(status, status === 429 ? 'Too Many Requests' : 'Internal Server Error', message, status === 429 ? 'rate_limited' : 'internal_error')
      : provider === 'kit'
        ? kitError(status, message)
        : provider === 'mailchimp'
          ? problem(status, status === 429 ? 'Too Many Requests' : 'Internal Server Error', message)
          : mlError(status, message)
  answer.headers = { ...answer.headers, ...headers }
  return answer
}
