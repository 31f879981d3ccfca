/**
 * Start or resume Stripe onboarding: the edge function `create-connect-onboarding` makes the publisher's Express
 * account once and answers a fresh onboarding link (Stripe's hosted page; locally the backend's Connect stand-in),
 * which the caller opens. Stripe sends the browser back to the payouts page.
 */
import { useMutation } from '@tanstack/react-query'
import { functionError } from '@/lib/function-error'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'

export async function createConnectOnboarding(): Promise<{ url: string }> {
  const { data, error } = await supabase.functions.invoke('create-connect-onboarding', { body: {} })
  if (error) throw await functionError(error, 'Please try again later')
  const url = (data as { url?: unknown } | null)?.url
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new Error('The payout setup could not be opened')
  return { url }
}

export function useConnectOnboardingMutation({ onSuccess }: { onSuccess?: (result: { url: string }) => void } = {}) {
  return useMutation({
    mutationFn: createConnectOnboarding,
    onSuccess: (result) => onSuccess?.(result),
    onError: (error) => toast.error(`Failed to open the payout setup: ${error.message}`),
  })
}
