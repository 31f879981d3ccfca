/**
 * The quick check of the SPA's build-time environment (see ./env.ts): no zod, no top-level await, so the
 * `/earn` page's inline script (src/features/magic-link/earn-inline.ts) can use it too.
 */
export type Env = {
  VITE_SUPABASE_URL: string
  VITE_SUPABASE_ANON_KEY: string
  VITE_PUBLIC_SITE_URL?: string
}

/** An absolute http(s) URL: every such string also passes zod's `z.url()`. */
function isWebUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value !== value.trim()) return false
  try {
    return /^https?:$/.test(new URL(value).protocol)
  } catch {
    return false
  }
}

/** The environment when it is plainly valid, else null (then zod decides). */
export function quickEnv(source: Record<string, unknown>): Env | null {
  const { VITE_SUPABASE_URL: url, VITE_SUPABASE_ANON_KEY: key, VITE_PUBLIC_SITE_URL: site } = source
  if (!isWebUrl(url) || typeof key !== 'string' || key.length < 20) return null
  if (site !== undefined && !isWebUrl(site)) return null
  return site === undefined
    ? { VITE_SUPABASE_URL: url, VITE_SUPABASE_ANON_KEY: key }
    : { VITE_SUPABASE_URL: url, VITE_SUPABASE_ANON_KEY: key, VITE_PUBLIC_SITE_URL: site }
}
