/**
 * The SPA's build-time environment. Missing values fail loudly with the fix, instead of a blank page
 * and a network error later.
 *
 * Validation is zod's, but zod stays off the path every page loads: a tiny check, stricter than the schema,
 * accepts a well-formed environment (the only case a working deployment ever meets) and zod is imported
 * only when that check fails, to decide and to name what is wrong (the schema is lib/env-schema.ts).
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
function quickEnv(source: Record<string, unknown>): Env | null {
  const { VITE_SUPABASE_URL: url, VITE_SUPABASE_ANON_KEY: key, VITE_PUBLIC_SITE_URL: site } = source
  if (!isWebUrl(url) || typeof key !== 'string' || key.length < 20) return null
  if (site !== undefined && !isWebUrl(site)) return null
  return site === undefined
    ? { VITE_SUPABASE_URL: url, VITE_SUPABASE_ANON_KEY: key }
    : { VITE_SUPABASE_URL: url, VITE_SUPABASE_ANON_KEY: key, VITE_PUBLIC_SITE_URL: site }
}

async function zodParseEnv(source: Record<string, unknown>): Promise<Env> {
  const { envSchema } = await import('@/lib/env-schema')
  const result = envSchema.safeParse(source)
  if (!result.success) throw new Error(result.error.issues.map((issue) => issue.message).join('\n'))
  return result.data
}

/** Resolves to the validated environment; rejects with one line per problem, each saying how to fix it. */
export async function parseEnv(source: Record<string, unknown>): Promise<Env> {
  return quickEnv(source) ?? zodParseEnv(source)
}

// A valid environment is read synchronously: the await only runs when something is wrong.
export const env: Env = quickEnv(import.meta.env) ?? (await zodParseEnv(import.meta.env))
