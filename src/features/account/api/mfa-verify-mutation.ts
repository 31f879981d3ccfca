/** Finishes TOTP enrolment with the first code from the app; the session becomes aal2. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { accountKeys } from '../keys'

export type MfaVerifyVariables = { factorId: string; code: string }

export async function verifyTotpEnrollment({ factorId, code }: MfaVerifyVariables) {
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code: code.trim() })
  if (error) throw error
}

export function useMfaVerifyMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: verifyTotpEnrollment,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.mfaFactors() }),
  })
}
