/**
 * Sets a new password for the signed-in user (with two-factor on, the server asks for a fresh code first). A
 * listed password is refused before anything is sent, and the server's weak_password answer is thrown in the
 * forms' own words.
 */
import { useMutation } from '@tanstack/react-query'
import { assertNotLeaked, weakPasswordText } from '@/lib/password-check'
import { supabase } from '@/lib/supabase'

export async function changePassword(password: string) {
  await assertNotLeaked(password)
  const { error } = await supabase.auth.updateUser({ password })
  if (error) throw new Error(weakPasswordText(error) ?? error.message, { cause: error })
}

export const usePasswordChangeMutation = () => useMutation({ mutationFn: changePassword })
