/**
 * The zod schema of the SPA's environment (see config/env.ts). A module of its own so that env.ts can import
 * it lazily, only when the quick check fails: zod then arrives tree-shaken, in the chunk the forms share.
 */
import * as z from 'zod/mini'

const hint =
  'Run `npm run dev` (it starts the local backend and writes .env.local), or set it for your hosted Supabase project.'

export const envSchema = z.object({
  VITE_SUPABASE_URL: z.url({ error: `VITE_SUPABASE_URL is missing or not a URL. ${hint}` }),
  VITE_SUPABASE_ANON_KEY: z
    .string({ error: `VITE_SUPABASE_ANON_KEY is missing. ${hint}` })
    .check(z.minLength(20, { error: `VITE_SUPABASE_ANON_KEY is missing. ${hint}` })),
  VITE_PUBLIC_SITE_URL: z.optional(z.url()),
})
