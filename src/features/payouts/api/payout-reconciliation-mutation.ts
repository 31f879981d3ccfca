/**
 * Reconcile payouts with Stripe: the edge function `reconcile-payouts` (the database admits only an admin at aal2)
 * compares every payout sent through Stripe with Stripe's own list of transfers to the publishers' accounts and
 * answers the differences. It changes nothing, so there is nothing to invalidate; the result is the mutation's data.
 */
import { useMutation } from '@tanstack/react-query'
import type { Reconciliation } from '@rules/payout-reconciliation'
import { functionError } from '@/lib/function-error'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'

export async function runPayoutReconciliation(): Promise<Reconciliation> {
  const { data, error } = await supabase.functions.invoke('reconcile-payouts', { body: {} })
  if (error) throw await functionError(error, 'Please try again later')
  const result = data as Reconciliation | null
  if (!result || !Array.isArray(result.differences)) throw new Error('The reconciliation could not be read')
  return result
}

export function usePayoutReconciliationMutation() {
  return useMutation({
    mutationFn: runPayoutReconciliation,
    onError: (error: Error) => toast.error(`Failed to reconcile payouts: ${error.message}`),
  })
}
