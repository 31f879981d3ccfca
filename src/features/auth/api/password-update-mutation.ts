/**
 * Sets a new password for the signed-in user (also the last step of a password reset). A listed password is
 * refused before anything is sent, and the server's weak_password answer is thrown in the forms' own words.
 */
import { useMutation } from '@tanstack/react-query'
import { assertNotLeaked, weakPasswordText } from '@/lib/password-check'
import { supabase } from '@/lib/supabase'

export async function updatePassword(password: string) {
  await assertNotLeaked(password)
  const { data, error } = await supabase.auth.updateUser({ password })
  if (error) throw new Error(weakPasswordText(error) ?? error.message, { cause: error })
  return data.user
}

export const usePasswordUpdateMutation = () => useMutation({ mutationFn: updatePassword })
