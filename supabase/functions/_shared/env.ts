/**
 * Function settings from the environment: hosted Supabase injects SUPABASE_*; the rest are project secrets
 * (`supabase secrets set NAME=value`, docs/deploy.md).
 *
 * Local stand-ins (the test checkout for Stripe, the SMTP sink for email) are chosen only where the embedded backend
 * runs the functions: it sets GROWLETTER_LOCAL=1 (embedded-backend/functions). Anywhere else a missing production
 * secret is a 500 that names it, before the function calls anything, instead of a call to a URL of the stand-in
 * that does not exist on hosted Supabase.
 */
import { HttpError } from './http.ts'

/**
 * One environment variable. Through globalThis: `Deno` is absent (and untyped) when the helpers run under Node in the
 * tests, which stand a `Deno.env` in.
 */
export function envVar(name: string): string | undefined {
  return (globalThis as { Deno?: { env: { get(name: string): string | undefined } } }).Deno?.env.get(name)
}

export function requireEnv(name: string): string {
  const value = envVar(name)
  if (!value) throw new Error(`Missing environment variable ${name}`)
  return value
}

/** The SPA's public origin, used in links inside emails (no trailing slash). */
export function siteUrl(): string {
  return requireEnv('SITE_URL').replace(/\/+$/, '')
}

/** Whether the embedded backend (embedded-backend) runs this function: the only place local stand-ins exist. */
export function isLocalBackend(): boolean {
  return envVar('GROWLETTER_LOCAL') === '1'
}

/** A production secret that is not set: the answer says which, and how to set it. */
export class MissingSecret extends HttpError {
  constructor(readonly secret: string) {
    super(500, `This function is not configured: set the secret ${secret} with \`supabase secrets set ${secret}=…\``)
  }
}

/** The secret's value, or a MissingSecret (500) when it is unset or blank. */
export function requireSecret(name: string): string {
  const value = envVar(name)?.trim()
  if (!value) throw new MissingSecret(name)
  return value
}

/**
 * Hosted Supabase injects the current API keys as JSON objects of named keys (`{"default": "sb_…"}`); self-hosted
 * setups may export one key under the singular name. The `default` key first, else any.
 */
function currentKey(plural: string, singular: string): string | undefined {
  const value = envVar(plural)
  if (value) {
    try {
      const named: unknown = JSON.parse(value)
      if (named && typeof named === 'object' && !Array.isArray(named)) {
        const keys = named as Record<string, unknown>
        const key =
          typeof keys.default === 'string' ? keys.default : Object.values(keys).find((k) => typeof k === 'string')
        if (typeof key === 'string' && key) return key
      }
    } catch {
      // Not JSON: fall through to the singular name.
    }
  }
  return envVar(singular) || undefined
}

/**
 * The key a server sends for the service role: the secret key, else the legacy service-role JWT (which hosted
 * projects retire with the legacy keys).
 */
export function serviceKey(): string {
  return currentKey('SUPABASE_SECRET_KEYS', 'SUPABASE_SECRET_KEY') ?? requireEnv('SUPABASE_SERVICE_ROLE_KEY')
}

/** The key a client sends as `apikey` on a user's behalf: the publishable key, else the legacy anon JWT. */
export function publishableKey(): string {
  return currentKey('SUPABASE_PUBLISHABLE_KEYS', 'SUPABASE_PUBLISHABLE_KEY') ?? requireEnv('SUPABASE_ANON_KEY')
}
