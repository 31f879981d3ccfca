/** The second sign-in step: the 6-digit TOTP code lifts the session to aal2. */
import { useMutation } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'

export type MfaChallengeVariables = { factorId: string; code: string }

export async function verifyMfaChallenge({ factorId, code }: MfaChallengeVariables) {
  const { data, error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code: code.trim() })
  if (error) throw error
  return data
}

export const useMfaChallengeVerifyMutation = () => useMutation({ mutationFn: verifyMfaChallenge })
