/**
 * Start a deposit: the edge function `create-checkout-session` opens a hosted checkout (Stripe Checkout;
 * locally the backend's test checkout) for the amount and answers its URL. The schema below refuses what
 * the function would refuse, with the same words (both import supabase/functions/_shared/rules/deposit.ts),
 * before any call; the function checks again.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { depositTextProblem } from '@rules/deposit'
import { functionError } from '@/lib/function-error'
import { ruleIssue } from '@/lib/rule-issue'
import { supabase } from '@/lib/supabase'
import { sessionStorageKeys } from '@/lib/storage-keys'
import { toast } from '@/lib/toast'
import { walletKeys } from '../keys'

export const depositSchema = z.object({
  amount: z
    .string()
    .superRefine(ruleIssue(depositTextProblem))
    .transform((value) => Number(value.trim())),
})
export type DepositFormInput = z.input<typeof depositSchema>
export type DepositFormValues = z.output<typeof depositSchema>

export async function createCheckoutSession({ amount }: { amount: number }): Promise<{ url: string }> {
  const { data, error } = await supabase.functions.invoke('create-checkout-session', { body: { amount } })
  if (error) throw await functionError(error, 'Please try again later')
  const { url, session_id: sessionId } = (data ?? {}) as { url?: unknown; session_id?: unknown }
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new Error('The payment page could not be opened')
  if (typeof sessionId === 'string') {
    try {
      // Remembered so a return through cancel_url (`payment=canceled`) closes this deposit.
      window.sessionStorage.setItem(sessionStorageKeys.openCheckout, sessionId)
    } catch {
      // Storage disabled: the deposit closes when its checkout expires instead.
    }
  }
  return { url }
}

export function useCheckoutSessionMutation({ onSuccess }: { onSuccess?: (result: { url: string }) => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createCheckoutSession,
    onSuccess: async (result) => {
      // The new pending deposit shows when the advertiser comes back.
      await queryClient.invalidateQueries({ queryKey: walletKeys.all })
      onSuccess?.(result)
    },
    onError: (error) => toast.error(`Failed to start the payment: ${error.message}`),
  })
}
