/**
 * Function settings from the environment: hosted Supabase injects SUPABASE_*; the rest are project secrets
 * (`supabase secrets set NAME=value`, docs/deploy.md).
 *
 * Local stand-ins (the test checkout for Stripe, the SMTP sink for email) are chosen only where the embedded backend
 * runs the functions: it sets GROWLETTER_LOCAL=1 (supabase/local/functions). Anywhere else a missing production
 * secret is a 500 that names it, before the function calls anything, instead of a call to a URL of the stand-in
 * that does not exist on hosted Supabase.
 */
import { HttpError } from './http.ts'

export function requireEnv(name: string): string {
  const value = Deno.env.get(name)
  if (!value) throw new Error(`Missing environment variable ${name}`)
  return value
}

/** The SPA's public origin, used in links inside emails (no trailing slash). */
export function siteUrl(): string {
  return requireEnv('SITE_URL').replace(/\/+$/, '')
}

/** Whether the embedded backend (supabase/local) runs this function: the only place local stand-ins exist. */
export function isLocalBackend(): boolean {
  return Deno.env.get('GROWLETTER_LOCAL') === '1'
}

/** A production secret that is not set: the answer says which, and how to set it. */
export class MissingSecret extends HttpError {
  constructor(readonly secret: string) {
    super(500, `This function is not configured: set the secret ${secret} with \`supabase secrets set ${secret}=…\``)
  }
}

/** The secret's value, or a MissingSecret (500) when it is unset or blank. */
export function requireSecret(name: string): string {
  const value = Deno.env.get(name)?.trim()
  if (!value) throw new MissingSecret(name)
  return value
}
