/**
 * The SPA's build-time environment. Missing values fail loudly with the fix, instead of a blank page
 * and a network error later.
 */
// zod/mini: the same validation in ~2 KB, since this runs on every page before anything renders.
import * as z from 'zod/mini'

const hint = 'Run `npm run dev` (it starts the local backend and writes .env.local), or set it for your hosted Supabase project.'

const schema = z.object({
  VITE_SUPABASE_URL: z.url({ error: `VITE_SUPABASE_URL is missing or not a URL. ${hint}` }),
  VITE_SUPABASE_ANON_KEY: z
    .string({ error: `VITE_SUPABASE_ANON_KEY is missing. ${hint}` })
    .check(z.minLength(20, { error: `VITE_SUPABASE_ANON_KEY is missing. ${hint}` })),
  VITE_PUBLIC_SITE_URL: z.optional(z.url()),
})

export type Env = z.infer<typeof schema>

export function parseEnv(source: Record<string, unknown>): Env {
  const result = schema.safeParse(source)
  if (!result.success) throw new Error(result.error.issues.map((issue) => issue.message).join('\n'))
  return result.data
}

export const env = parseEnv(import.meta.env)
