/** Function settings from the environment: hosted Supabase injects SUPABASE_*; the rest are project secrets. */
export function requireEnv(name: string): string {
  const value = Deno.env.get(name)
  if (!value) throw new Error(`Missing environment variable ${name}`)
  return value
}

/** The SPA's public origin, used in links inside emails (no trailing slash). */
export function siteUrl(): string {
  return requireEnv('SITE_URL').replace(/\/+$/, '')
}
