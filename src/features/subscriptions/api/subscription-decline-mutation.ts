/**
 * Declines a newsletter from its confirmation email (edge function `decline-subscription`), with the same token as
 * the confirm link. A POST from the page's button, so a mail scanner that fetches the link declines nothing.
 * The answer names what was declined and what was already confirmed (which cannot be declined).
 */
import { useMutation } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { functionErrorBody } from '@/lib/function-error'

export type DeclineVariables = { token: string; email: string }
export type DeclineResult = {
  success: boolean
  /** Newsletters this link declined (now or before). */
  declined: string[]
  /** Newsletters of this link already confirmed: they stay. */
  alreadyConfirmed: string[]
  error: string | null
}

const names = (value: unknown) =>
  Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : []

function toResult(body: Record<string, unknown>): DeclineResult {
  return {
    success: body.success === true,
    declined: names(body.declined),
    alreadyConfirmed: names(body.alreadyConfirmed),
    error: typeof body.error === 'string' ? body.error : null,
  }
}

/** A 4xx that carries the function's answer is a result; only unreadable failures throw. */
export async function declineSubscription({ token, email }: DeclineVariables): Promise<DeclineResult> {
  const { data, error } = await supabase.functions.invoke('decline-subscription', {
    method: 'POST',
    body: { token, email },
  })
  if (error) {
    const body = await functionErrorBody(error)
    if (body) return toResult(body)
    throw error instanceof Error ? error : new Error('Could not reach Growletter')
  }
  if (!data || typeof data !== 'object') throw new Error('Unexpected answer from Growletter')
  return toResult(data as Record<string, unknown>)
}

export const useSubscriptionDeclineMutation = () => useMutation({ mutationFn: declineSubscription })
