/**
 * The quick check of the SPA's build-time environment (see ./env.ts): no zod, no top-level await, so the
 * `/earn` page's inline script (src/features/magic-link/earn-inline.ts) can use it too.
 */
export type Env = {
  VITE_SUPABASE_URL: string
  /**
   * What the SPA sends as `apikey`: VITE_SUPABASE_PUBLISHABLE_KEY (`sb_publishable_…`), or the legacy anon JWT in
   * VITE_SUPABASE_ANON_KEY when only that is set (older `.env` files, projects still on the legacy keys).
   */
  supabaseKey: string
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

/** The publishable key when one is set, else the anon key: the one the SPA uses. */
export function chosenKey(source: Record<string, unknown>): unknown {
  const publishable = source.VITE_SUPABASE_PUBLISHABLE_KEY
  return publishable !== undefined && publishable !== '' ? publishable : source.VITE_SUPABASE_ANON_KEY
}

/** A key a browser may carry: long enough to be one, and never a secret key (hosted refuses those from browsers). */
export const isBrowserKey = (key: unknown): key is string =>
  typeof key === 'string' && key.length >= 20 && !key.startsWith('sb_secret_')

/** The environment when it is plainly valid, else null (then zod decides). */
export function quickEnv(source: Record<string, unknown>): Env | null {
  const { VITE_SUPABASE_URL: url, VITE_PUBLIC_SITE_URL: site } = source
  const key = chosenKey(source)
  if (!isWebUrl(url) || !isBrowserKey(key)) return null
  if (site !== undefined && !isWebUrl(site)) return null
  return site === undefined
    ? { VITE_SUPABASE_URL: url, supabaseKey: key }
    : { VITE_SUPABASE_URL: url, supabaseKey: key, VITE_PUBLIC_SITE_URL: site }
}
