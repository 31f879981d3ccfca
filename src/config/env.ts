/**
 * The SPA's build-time environment. Missing values fail loudly with the fix, instead of a blank page
 * and a network error later.
 *
 * Validation is zod's, but zod stays off the path every page loads: a tiny check, stricter than the schema,
 * accepts a well-formed environment (the only case a working deployment ever meets) and zod is imported
 * only when that check fails, to decide and to name what is wrong (the schema is lib/env-schema.ts).
 */
import { chosenKey, quickEnv, type Env } from './env-check'

export type { Env }

async function zodParseEnv(source: Record<string, unknown>): Promise<Env> {
  const { envSchema } = await import('@/lib/env-schema')
  const result = envSchema.safeParse({
    VITE_SUPABASE_URL: source.VITE_SUPABASE_URL,
    supabaseKey: chosenKey(source),
    VITE_PUBLIC_SITE_URL: source.VITE_PUBLIC_SITE_URL,
  })
  if (!result.success) throw new Error(result.error.issues.map((issue) => issue.message).join('\n'))
  return result.data
}

/** Resolves to the validated environment; rejects with one line per problem, each saying how to fix it. */
export async function parseEnv(source: Record<string, unknown>): Promise<Env> {
  return quickEnv(source) ?? zodParseEnv(source)
}

// A valid environment is read synchronously: the await only runs when something is wrong.
export const env: Env = quickEnv(import.meta.env) ?? (await zodParseEnv(import.meta.env))
