/**
 * Start a deposit: the edge function `create-checkout-session` opens a hosted checkout (Stripe Checkout;
 * locally the backend's test checkout) for the amount and answers its URL. The schema below refuses what
 * the function would refuse, with the same words, before any call; the function checks again.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { FunctionsHttpError } from '@supabase/functions-js'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'
import { walletKeys } from '../keys'

export const MIN_DEPOSIT = 10
export const MAX_DEPOSIT = 10_000

export const depositMessages = {
  missing: 'Enter an amount between 10 and 10,000 credits.',
  notNumber: 'The amount must be a number of credits, for example 25 or 25.50.',
  tooSmall: 'The minimum deposit is 10 credits.',
  tooLarge: 'The maximum deposit is 10,000 credits per payment.',
  decimals: 'Use at most two decimals, for example 25.50.',
} as const

export const depositSchema = z.object({
  amount: z
    .string()
    .trim()
    .min(1, depositMessages.missing)
    .regex(/^-?\d+(\.\d+)?$/, depositMessages.notNumber)
    .refine((v) => Number(v) >= MIN_DEPOSIT, depositMessages.tooSmall)
    .refine((v) => Number(v) <= MAX_DEPOSIT, depositMessages.tooLarge)
    .refine((v) => !/\.\d{3,}$/.test(v), depositMessages.decimals)
    .transform((v) => Number(v)),
})
export type DepositFormInput = z.input<typeof depositSchema>
export type DepositFormValues = z.output<typeof depositSchema>

/** The function's own message (400/401/403 answer `{ error }`), else supabase-js's. */
async function functionError(error: unknown): Promise<Error> {
  if (error instanceof FunctionsHttpError && error.context instanceof Response) {
    const body: unknown = await error.context
      .clone()
      .json()
      .catch(() => null)
    const message = body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined
    if (typeof message === 'string' && message) return new Error(message)
  }
  return error instanceof Error ? error : new Error('Please try again later')
}

export async function createCheckoutSession({ amount }: { amount: number }): Promise<{ url: string }> {
  const { data, error } = await supabase.functions.invoke('create-checkout-session', { body: { amount } })
  if (error) throw await functionError(error)
  const url = (data as { url?: unknown } | null)?.url
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new Error('The payment page could not be opened')
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
