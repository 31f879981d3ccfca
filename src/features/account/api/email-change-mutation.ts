/** Asks to move the account to a new email address; it changes once the link sent to it is followed. */
import { useMutation } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'

export async function requestEmailChange(email: string) {
  const { error } = await supabase.auth.updateUser(
    { email: email.trim() },
    { emailRedirectTo: `${window.location.origin}/dashboard/account` },
  )
  if (error) throw error
}

export const useEmailChangeMutation = () => useMutation({ mutationFn: requestEmailChange })
