/**
 * Ask for a payout of available earnings (database function `request_payout`; the minimum is MIN_PAYOUT of
 * supabase/functions/_shared/rules/payout.ts, which the database's bound is pinned to).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from '@/lib/toast'
import { z } from 'zod'
import { MIN_PAYOUT, PAYOUT_MESSAGES } from '@rules/payout'
import { supabase } from '@/lib/supabase'
import { payoutKeys } from '../keys'

/** The form's rules; the database checks the same again (minimum, two decimals, available). */
export const payoutSchema = (available: number) =>
  z.object({
    amount: z
      .string()
      .trim()
      .min(1, 'Enter an amount')
      .regex(/^\d+(\.\d{1,2})?$/, 'Enter an amount in credits with at most two decimals, e.g. 50 or 72.50')
      .transform(Number)
      .refine((n) => n >= MIN_PAYOUT, PAYOUT_MESSAGES.belowMinimum)
      .refine((n) => n <= available, `You can request at most your available ${available.toFixed(2)} credits`),
  })
export type PayoutFormInput = z.input<ReturnType<typeof payoutSchema>>
export type PayoutFormValues = z.output<ReturnType<typeof payoutSchema>>

export type PayoutVariables = { userId: string; amount: number }

export async function requestPayout({ amount }: PayoutVariables) {
  const { data, error } = await supabase.rpc('request_payout', { p_amount: amount })
  if (error) throw new Error(error.message)
  return data
}

export function usePayoutRequestMutation({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: requestPayout,
    onSuccess: async (_data, { userId }) => {
      await queryClient.invalidateQueries({ queryKey: payoutKeys.publisher(userId) })
      toast.success('Payout requested', { description: 'It is sent to your bank account through Stripe.' })
      onSuccess?.()
    },
    onError: (error) => toast.error(`Failed to request the payout: ${error.message}`),
  })
}
