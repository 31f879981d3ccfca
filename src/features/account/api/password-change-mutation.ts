/** Sets a new password for the signed-in user (with two-factor on, the server asks for a fresh code first). */
import { useMutation } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'

export async function changePassword(password: string) {
  const { error } = await supabase.auth.updateUser({ password })
  if (error) throw error
}

export const usePasswordChangeMutation = () => useMutation({ mutationFn: changePassword })
