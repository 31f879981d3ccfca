/**
 * The one Supabase client of the SPA. Nothing else creates one: sessions, refresh and auth events must
 * have a single owner. Options follow SPEC §9 (persist on, auto refresh on, URL session detection off).
 */
import { createClient } from '@supabase/supabase-js'
import { env } from '@/config/env'
import type { Database } from '@/types/database.types'

export const supabase = createClient<Database>(env.VITE_SUPABASE_URL, env.VITE_SUPABASE_ANON_KEY, {
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: false },
})
