/** The signed-in user's TOTP factors (verified ones protect sign-in; unverified ones are half-finished enrolments). */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { accountKeys } from '../keys'

export async function getMfaFactors() {
  const { data, error } = await supabase.auth.mfa.listFactors()
  if (error) throw error
  return data.all.filter((factor) => factor.factor_type === 'totp')
}

export const mfaFactorsQueryOptions = () => queryOptions({ queryKey: accountKeys.mfaFactors(), queryFn: getMfaFactors })

export const useMfaFactorsQuery = () => useQuery(mfaFactorsQueryOptions())
