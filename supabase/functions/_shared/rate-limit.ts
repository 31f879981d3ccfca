/**
 * The edge functions' rate limits, counted in the database (public.take_function_allowance → private.hit_rate_limit,
 * migration 20260504000300). On hosted Supabase a function runs in many short-lived isolates, each with its own
 * memory: a counter kept in memory limits one isolate, not the caller. The limits themselves are written in that
 * migration; a function names the rule and whom it counts.
 */
import { HttpError } from './http.ts'
import { serviceClient } from './supabase-admin.ts'

export type RateRule =
  | 'subscribe-ip'
  | 'verify-subscription-ip'
  | 'decline-subscription-ip'
  | 'backup-confirmation-ip'
  | 'backup-confirmation-inbox'
  | 'esp-lookup-user'

/** Counts one attempt of `subject` under `rule`; a refusal is a 429 with Retry-After and `message`. */
export async function takeAllowance(rule: RateRule, subject: string, message: string): Promise<void> {
  const { data, error } = await serviceClient().rpc('take_function_allowance', { p_rule: rule, p_subject: subject })
  if (error) throw new Error(`take_function_allowance failed: ${error.message}`)
  const wait = Number(data)
  if (wait > 0) throw new HttpError(429, message, { 'Retry-After': String(wait) })
}
