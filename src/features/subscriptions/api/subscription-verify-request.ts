/**
 * Confirms a subscription by POSTing the token to `verify-subscription` from JavaScript, so a mail scanner that
 * fetches the link confirms nothing (PRODUCT.md "Subscriptions").
 */
import { supabase } from '@/lib/supabase'
import { functionErrorBody } from '@/lib/function-error'

export type VerifyVariables = { token: string; email: string }
export type VerifyResult = {
  success: boolean
  alreadyConfirmed: boolean
  expired: boolean
  newsletterName: string | null
  /** The confirmed newsletter's id (ours, beside SPEC §7's fields), so this browser remembers it. */
  newsletterId: string | null
  /** Every newsletter the link confirmed (a "confirm all" link confirms its whole request). */
  newsletterIds: string[]
  error: string | null
}

function toResult(body: Record<string, unknown>): VerifyResult {
  return {
    success: body.success === true,
    alreadyConfirmed: body.alreadyConfirmed === true,
    expired: body.expired === true,
    newsletterName: typeof body.newsletterName === 'string' ? body.newsletterName : null,
    newsletterId: typeof body.newsletterId === 'string' ? body.newsletterId : null,
    newsletterIds: Array.isArray(body.newsletterIds)
      ? body.newsletterIds.filter((id): id is string => typeof id === 'string')
      : [],
    error: typeof body.error === 'string' ? body.error : null,
  }
}

/** A 4xx that carries the function's answer (expired, invalid) is a result; only unreadable failures throw. */
export async function verifySubscription({ token, email }: VerifyVariables): Promise<VerifyResult> {
  const { data, error } = await supabase.functions.invoke('verify-subscription', {
    method: 'POST',
    body: { token, email },
  })
  if (error) {
    const body = await functionErrorBody(error)
    if (body) return toResult(body)
    throw error instanceof Error ? error : new Error('Verification error')
  }
  if (!data || typeof data !== 'object') throw new Error('Unexpected answer from verification')
  return toResult(data as Record<string, unknown>)
}
