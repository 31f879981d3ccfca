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

export const PROVIDER_HANDLERS: Record<
  SandboxProvider,
  (req: ProviderRequest, store: EspStore) => Promise<ProviderAnswer>
> = {
  beehiiv,
  kit,
  mailchimp,
  mailerlite,
}

/**
 * A forced failure as the provider sends it. A 429 carries what each provider documents: beehiiv RateLimit-*
 * with RateLimit-Reset in epoch seconds, Kit the plain text "Retry later" and no wait, Mailchimp no rate-limit
 * header at all, MailerLite X-RateLimit-* and Retry-After (60 s unless told). `retryAfterSeconds`, when the
 * control call names it, is also sent as Retry-After whatever the provider (a developer asked for it).
 */
export function forcedFailure(
  provider: SandboxProvider,
  status: number,
  retryAfterSeconds: number | undefined,
  now = Date.now(),
): ApiResponse {
  const limited = status === 429
  const message = limited
    ? 'Too many requests (forced by the local ESP sandbox)'
    : 'Internal server error (forced by the local ESP sandbox)'
  let answer: ApiResponse
  if (provider === 'beehiiv') {
    answer = beehiivError(
      status,
      limited ? 'Too Many Requests' : 'Internal Server Error',
      message,
      limited ? 'rate_limited' : 'internal_error',
    )
    if (limited) {
      answer.headers = {
        ...answer.headers,
        'ratelimit-limit': '180',
        'ratelimit-remaining': '0',
        'ratelimit-reset': String(Math.ceil(now / 1000) + (retryAfterSeconds ?? 60)),
      }
    }
  } else if (provider === 'kit') {
    answer = limited
      ? { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Retry later' }
      : kitError(status, message)
  } else if (provider === 'mailchimp') {
    answer = problem(
      status,
      limited ? 'Too Many Requests' : 'Internal Server Error',
      limited ? 'You have exceeded the limit of 10 simultaneous connections.' : message,
    )
  } else {
    answer = mlError(status, limited ? 'Too Many Attempts.' : message)
    if (limited)
      answer.headers = {
        ...answer.headers,
        'x-ratelimit-limit': '120',
        'x-ratelimit-remaining': '0',
        'retry-after': String(retryAfterSeconds ?? 60),
      }
  }
  if (retryAfterSeconds !== undefined) answer.headers = { ...answer.headers, 'retry-after': String(retryAfterSeconds) }
  return answer
}
