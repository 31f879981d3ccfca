/** Ends every session of this account except the one in this browser (a lost phone, a shared computer). */
import { useMutation } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'

export async function signOutOtherSessions() {
  const { error } = await supabase.auth.signOut({ scope: 'others' })
  if (error) throw error
}

export const useOtherSessionsSignOutMutation = () =>
  useMutation({
    mutationFn: signOutOtherSessions,
    onSuccess: () => toast.success('Signed out of every other device'),
    onError: (error) => toast.error(`Failed to sign out other devices: ${error.message}`),
  })
