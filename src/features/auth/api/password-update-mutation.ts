/** Sets a new password for the signed-in user (also the last step of a password reset). */
import { useMutation } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'

export async function updatePassword(password: string) {
  const { data, error } = await supabase.auth.updateUser({ password })
  if (error) throw error
  return data.user
}

export const usePasswordUpdateMutation = () => useMutation({ mutationFn: updatePassword })
