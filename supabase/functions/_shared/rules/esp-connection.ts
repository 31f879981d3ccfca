/**
 * What an advertiser may save as an email-tool connection (PRODUCT.md "Subscribers delivered into the advertiser's
 * email service provider"): one of four providers, an API key without spaces (Mailchimp's ends in its data
 * centre), and a list. The connect panel (src/features/subscribers) checks it; the database's
 * `private.esp_key_problem` and `save_esp_connection` are the checks that count, with the same words, pinned to
 * this module by supabase/tests/esp-delivery.test.ts.
 *
 * Pure TypeScript with no imports: Deno (the functions) and Vite (the SPA) both load it.
 */

export const ESP_PROVIDER_NAMES = {
  beehiiv: 'beehiiv',
  kit: 'Kit',
  mailchimp: 'Mailchimp',
  mailerlite: 'MailerLite',
} as const

export type EspProviderName = keyof typeof ESP_PROVIDER_NAMES

/** What each provider calls the list a subscriber goes into. */
export const ESP_TARGET_NOUNS: Record<EspProviderName, string> = {
  beehiiv: 'publication',
  kit: 'form',
  mailchimp: 'audience',
  mailerlite: 'group',
}

export const MAX_ESP_KEY_LENGTH = 500

export const ESP_KEY_MESSAGES = {
  provider: 'Choose beehiiv, Kit, Mailchimp or MailerLite',
  missing: 'Enter the API key from your email tool',
  tooLong: 'That API key is too long; paste only the key',
  spaces: 'An API key has no spaces; paste only the key',
  mailchimpDataCentre: 'A Mailchimp API key ends in its data centre, such as -us21',
  target: 'Choose the list your subscribers should go to',
} as const

/**
 * What "Remove from <tool>" does in each tool (issue 38), as the clients in ../esp do it; `list` is the connected
 * list's name.
 */
export const ESP_REMOVAL_EFFECTS: Record<EspProviderName, (list: string) => string> = {
  beehiiv: (list) => `Their subscription to ${list} is deleted in beehiiv.`,
  kit: () => 'They are unsubscribed in Kit, so no Kit email reaches them any more (Kit has no per-form removal).',
  mailchimp: (list) => `They are marked unsubscribed in the ${list} audience.`,
  mailerlite: (list) => `They are taken out of the ${list} group; the rest of your MailerLite account is left alone.`,
}

export const isEspProviderName = (value: unknown): value is EspProviderName =>
  typeof value === 'string' && Object.prototype.hasOwnProperty.call(ESP_PROVIDER_NAMES, value)

/** What is wrong with a provider and key (checked trimmed, as the database does), or null. */
export function espKeyProblem(provider: unknown, apiKey: string): string | null {
  if (!isEspProviderName(provider)) return ESP_KEY_MESSAGES.provider
  const key = apiKey.trim()
  if (!key) return ESP_KEY_MESSAGES.missing
  if (key.length > MAX_ESP_KEY_LENGTH) return ESP_KEY_MESSAGES.tooLong
  if (/\s/.test(key)) return ESP_KEY_MESSAGES.spaces
  if (provider === 'mailchimp' && !/-[a-z]+[0-9]+$/.test(key)) return ESP_KEY_MESSAGES.mailchimpDataCentre
  return null
}
