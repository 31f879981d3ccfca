/**
 * The publisher's Stripe Express account as the database last heard of it from Stripe (`payout_accounts`, kept by
 * connect-webhook): its state (no row: not set up), what Stripe still needs, and whether payouts are automatic.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import type { PayoutAccountState } from '@/lib/vocabulary'
import { payoutKeys } from '../keys'

export type PayoutAccount = {
  state: PayoutAccountState
  requirementsDue: string[]
  disabledReason: string | null
  autoPayout: boolean
  exists: boolean
}

export async function getPayoutAccount(userId: string): Promise<PayoutAccount> {
  const { data, error } = await supabase
    .from('payout_accounts')
    .select('state, requirements_due, disabled_reason, auto_payout')
    .eq('publisher_id', userId)
    .maybeSingle()
  if (error) throw new Error(error.message)
  if (!data) return { state: 'not_set_up', requirementsDue: [], disabledReason: null, autoPayout: false, exists: false }
  return {
    state: data.state as PayoutAccountState,
    requirementsDue: data.requirements_due ?? [],
    disabledReason: data.disabled_reason,
    autoPayout: data.auto_payout,
    exists: true,
  }
}

export const payoutAccountQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: payoutKeys.account(userId),
    queryFn: () => getPayoutAccount(userId),
    // Stripe's verification ends with an account.updated event: the page follows it while it waits.
    refetchInterval: (query) => (query.state.data?.state === 'pending_verification' ? 5000 : false),
  })

export const usePayoutAccountQuery = (userId: string) => useQuery(payoutAccountQueryOptions(userId))
