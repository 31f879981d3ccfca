/**
 * The zod schema of the SPA's environment (see config/env.ts). A module of its own so that env.ts can import
 * it lazily, only when the quick check fails: zod then arrives tree-shaken, in the chunk the forms share.
 */
import * as z from 'zod/mini'

const hint =
  'Run `npm run dev` (it starts the local backend and writes .env.local), or set it for your hosted Supabase project.'
const missingKey = `VITE_SUPABASE_PUBLISHABLE_KEY (or the legacy VITE_SUPABASE_ANON_KEY) is missing. ${hint}`

export const envSchema = z.object({
  VITE_SUPABASE_URL: z.url({ error: `VITE_SUPABASE_URL is missing or not a URL. ${hint}` }),
  // The publishable key, or the anon key when only that is set (config/env-check.ts chooses).
  supabaseKey: z.string({ error: missingKey }).check(
    z.minLength(20, { error: missingKey }),
    z.refine((key) => !key.startsWith('sb_secret_'), {
      error:
        'The SPA was given a secret key (sb_secret_…): use the publishable key; secret keys never go in a browser.',
    }),
  ),
  VITE_PUBLIC_SITE_URL: z.optional(z.url()),
})
