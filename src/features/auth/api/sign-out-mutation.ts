/**
 * Sign-out (SPEC §4, §8). supabase-js already treats a 404/401/403 from the server (the session is gone
 * there) as success and removes the session stored in this browser; any other failure is reported so the
 * user can try again. The query cache is cleared so the next user never sees the previous user's data.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'

export async function signOut() {
  const { error } = await supabase.auth.signOut()
  if (error) throw error
}

export function useSignOutMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: signOut,
    onSuccess: () => queryClient.clear(),
  })
}
