/**
 * The session's assurance level (aal1: password only; aal2: raised by a TOTP code). The database refuses
 * admin tools and, for accounts with two-factor sign-in, money actions below aal2; screens read this to ask
 * for the second factor before the database has to refuse.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { accountKeys } from '../keys'

/** From the stored session alone (the token's `aal` claim and the user's factors): no request needed. */
export async function getAssuranceLevel() {
  const { data, error } = await supabase.auth.getSession()
  if (error) throw error
  const token = data.session?.access_token ?? ''
  let current = 'aal1'
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { aal?: string }
    current = payload.aal ?? 'aal1'
  } catch {
    current = 'aal1'
  }
  const hasFactor = (data.session?.user.factors ?? []).some((factor) => factor.status === 'verified')
  return { current, next: hasFactor ? 'aal2' : 'aal1' }
}

export const assuranceLevelQueryOptions = () =>
  // Part of the factors key: enrolling or removing a factor invalidates both.
  queryOptions({ queryKey: [...accountKeys.mfaFactors(), 'assurance-level'], queryFn: getAssuranceLevel, staleTime: 0 })

export const useAssuranceLevelQuery = () => useQuery(assuranceLevelQueryOptions())
