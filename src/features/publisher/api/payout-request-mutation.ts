/** Ask for a payout of available earnings (database function `request_payout`: minimum 50 credits). */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from '@/lib/toast'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'
import { publisherKeys } from '../keys'

export const MIN_PAYOUT = 50

export const payoutSchema = z.object({
  amount: z.coerce
    .number<string>({ error: 'Enter an amount' })
    .min(MIN_PAYOUT, `The minimum payout is ${MIN_PAYOUT} credits`)
    .max(1_000_000),
})
export type PayoutFormInput = z.input<typeof payoutSchema>
export type PayoutFormValues = z.output<typeof payoutSchema>

export type PayoutVariables = { userId: string; amount: number }

export async function requestPayout({ amount }: PayoutVariables) {
  const { data, error } = await supabase.rpc('request_payout', { p_amount: Math.round(amount * 100) / 100 })
  if (error) throw new Error(error.message)
  return data
}

export function usePayoutRequestMutation({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: requestPayout,
    onSuccess: async (_data, { userId }) => {
      await queryClient.invalidateQueries({ queryKey: publisherKeys.user(userId) })
      toast.success('Payout requested', { description: 'An admin will mark it paid.' })
      onSuccess?.()
    },
    onError: (error) => toast.error(`Failed to request the payout: ${error.message}`),
  })
}
