/**
 * Turns the tokens an auth email link put in the URL hash into the app's session (SPEC §9 keeps
 * supabase-js from doing it by itself), and says what kind of link it was (signup, recovery, …).
 */
import { supabase } from '@/lib/supabase'
import type { AuthHash } from '../auth-hash'

export async function startSessionFromHash(hash: Extract<AuthHash, { kind: 'session' }>) {
  const { data, error } = await supabase.auth.setSession({
    access_token: hash.accessToken,
    refresh_token: hash.refreshToken,
  })
  if (error) throw error
  return { user: data.user, type: hash.type }
}
