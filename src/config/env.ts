/**
 * The SPA's build-time environment. Missing values fail loudly with the fix, instead of a blank page
 * and a network error later.
 */
import { z } from 'zod'

const hint = 'Run `npm run dev` (it starts the local backend and writes .env.local), or set it for your hosted Supabase project.'

const schema = z.object({
  VITE_SUPABASE_URL: z.url({ error: `VITE_SUPABASE_URL is missing or not a URL. ${hint}` }),
  VITE_SUPABASE_ANON_KEY: z.string({ error: `VITE_SUPABASE_ANON_KEY is missing. ${hint}` }).min(20, {
    error: `VITE_SUPABASE_ANON_KEY is missing. ${hint}`,
  }),
  VITE_PUBLIC_SITE_URL: z.url().optional(),
})

export type Env = z.infer<typeof schema>

export function parseEnv(source: Record<string, unknown>): Env {
  const result = schema.safeParse(source)
  if (!result.success) throw new Error(result.error.issues.map((issue) => issue.message).join('\n'))
  return result.data
}

export const env = parseEnv(import.meta.env)
