/** Turns two-factor sign-in off by removing the factor. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { accountKeys } from '../keys'

export async function unenrollTotp(factorId: string) {
  const { error } = await supabase.auth.mfa.unenroll({ factorId })
  if (error) throw error
}

export function useMfaUnenrollMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: unenrollTotp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.mfaFactors() }),
  })
}
