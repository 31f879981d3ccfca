/**
 * A service-role client for the database functions only edge functions may call (create_pending_subscriptions,
 * confirm_subscription) and the auth admin API. Never hand its results to the caller unfiltered.
 */
import { createClient, type SupabaseClient } from 'npm:@supabase/supabase-js@2.109'
import { requireEnv, serviceKey } from './env.ts'

let client: SupabaseClient | undefined

export function serviceClient(): SupabaseClient {
  client ??= createClient(requireEnv('SUPABASE_URL'), serviceKey(), {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  })
  return client
}

/** A database function's own message (raised for the user, SQLSTATE 22023 or P0001) or undefined. */
export function userFacingDbMessage(error: { code?: string; message?: string }): string | undefined {
  return error.code === '22023' || error.code === 'P0001' ? error.message : undefined
}
