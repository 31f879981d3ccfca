/**
 * First sign-in after registration: if the database has no profile for the user (it normally creates one
 * from the sign-up metadata), create it from what was typed at registration (SPEC §7 upsert on id).
 * SPEC §8: a failure here is logged and ignored. The stored registration details are then forgotten.
 */
import { supabase } from '@/lib/supabase'
import { forgetRegistration, readRegistration } from '../registration-storage'

export async function completeProfileFromRegistration(userId: string) {
  const stored = readRegistration()
  if (!stored.userType && !stored.fullName) return
  try {
    const { data, error } = await supabase.from('profiles').select('id').eq('id', userId).maybeSingle()
    if (error) throw error
    if (!data) {
      const insert = await supabase.from('profiles').upsert(
        {
          id: userId,
          user_type: stored.userType ?? 'advertiser',
          full_name: stored.fullName,
          first_name: stored.firstName,
          last_name: stored.lastName,
        },
        // Insert-or-nothing: merge-duplicates would also set id and user_type on conflict, columns the signed-in
        // role may not update (the profile exists then anyway); PostgREST asks UPDATE of every column it sets.
        { onConflict: 'id', ignoreDuplicates: true },
      )
      if (insert.error) throw insert.error
    }
    forgetRegistration()
  } catch (error) {
    console.error('Profile creation failed', error)
  }
}
