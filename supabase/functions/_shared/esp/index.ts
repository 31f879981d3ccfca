/**
 * The ESP clients (issue 25): `espClient(provider, env)` picks the provider's client with its base URL from
 * `ESP_<PROVIDER>_API_URL` (the embedded backend points these at its local sandbox; unset means the real API).
 */
import { beehiivClient } from './beehiiv.ts'
import { kitClient } from './kit.ts'
import { mailchimpClient } from './mailchimp.ts'
import { mailerliteClient } from './mailerlite.ts'
import type { EspClient, EspClientOptions, EspProvider } from './types.ts'

export { ESP_PROVIDERS, ESP_RATE_BUDGETS } from './types.ts'
export type {
  EspClient,
  EspClientOptions,
  EspEngagement,
  EspFailure,
  EspListMember,
  EspListPage,
  EspListQuery,
  EspProvider,
  EspResult,
  EspSubscriber,
  EspTarget,
} from './types.ts'
export { retryAfterMs } from './http.ts'
export { mailchimpApiUrl, subscriberHash } from './mailchimp.ts'

export const ESP_ENV_NAMES: Record<EspProvider, string> = {
  beehiiv: 'ESP_BEEHIIV_API_URL',
  kit: 'ESP_KIT_API_URL',
  mailchimp: 'ESP_MAILCHIMP_API_URL',
  mailerlite: 'ESP_MAILERLITE_API_URL',
}

const factories: Record<EspProvider, (options: EspClientOptions) => EspClient> = {
  beehiiv: beehiivClient,
  kit: kitClient,
  mailchimp: mailchimpClient,
  mailerlite: mailerliteClient,
}

export const isEspProvider = (value: unknown): value is EspProvider =>
  typeof value === 'string' && Object.prototype.hasOwnProperty.call(factories, value)

/**
 * `env` reads a variable (in a function: `(name) => Deno.env.get(name)`); an empty value counts as unset.
 */
export function espClient(
  provider: EspProvider,
  env: (name: string) => string | undefined,
  options: Omit<EspClientOptions, 'baseUrl'> = {},
): EspClient {
  const baseUrl = env(ESP_ENV_NAMES[provider]) || undefined
  return factories[provider]({ ...options, baseUrl })
}
