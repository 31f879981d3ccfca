/**
 * Payout rules (PRODUCT.md "Payouts"): a publisher asks for at least 50 available credits, and an admin marks
 * the transfer paid with its reference (3 to 200 characters). Defined here once: the payout dialog and the
 * admin's mark-paid dialog (src/features) check them before calling; the database functions `request_payout`
 * and `admin_mark_payout_paid` are the checks that count, with the same bounds and words, pinned to these
 * constants by supabase/tests/rule-bounds.test.ts.
 *
 * Pure TypeScript with no imports but its siblings: Deno (the functions) and Vite (the SPA) both load it.
 */
import { numberText } from './numbers.ts'

export const MIN_PAYOUT = 50

export const PAYOUT_MESSAGES = {
  belowMinimum: `The minimum payout is ${numberText(MIN_PAYOUT)} credits`,
} as const

/**
 * Why a publisher cannot be paid through Stripe yet, by the state of their payout account (ready: nothing). The
 * payouts page explains its disabled button with these; `request_payout` and `set_auto_payout` raise the same words
 * (private.payout_account_problem), pinned by supabase/tests/stripe-payouts.test.ts.
 */
export const PAYOUT_ACCOUNT_MESSAGES = {
  not_set_up: 'Set up payouts first: Stripe needs to know where to send your money.',
  pending_verification: 'Stripe is still verifying your payout account. You can request a payout once it is ready.',
  action_needed: 'Stripe needs more information before you can be paid. Open "Set up payouts" and finish what it asks.',
} as const

export const MIN_TRANSFER_REFERENCE_LENGTH = 3
export const MAX_TRANSFER_REFERENCE_LENGTH = 200

export const TRANSFER_REFERENCE_MESSAGES = {
  tooShort: `Enter the transfer reference of the payment (at least ${MIN_TRANSFER_REFERENCE_LENGTH} characters)`,
  tooLong: `The transfer reference can be at most ${MAX_TRANSFER_REFERENCE_LENGTH} characters`,
} as const

/** What is wrong with a transfer reference (checked trimmed, as the database does), or null. */
export function transferReferenceProblem(reference: string): string | null {
  const length = reference.trim().length
  if (length < MIN_TRANSFER_REFERENCE_LENGTH) return TRANSFER_REFERENCE_MESSAGES.tooShort
  if (length > MAX_TRANSFER_REFERENCE_LENGTH) return TRANSFER_REFERENCE_MESSAGES.tooLong
  return null
}
