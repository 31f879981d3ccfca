/**
 * How an advertiser describes a dispute (PRODUCT.md "Disputes"): 10 to 2,000 characters, so an admin has
 * something to weigh. Defined here once: the open-dispute dialog (src/features/disputes) checks it; the database
 * function `open_dispute` is the check that counts, with the same bounds and words, pinned to these constants by
 * supabase/tests/rule-bounds.test.ts.
 *
 * Pure TypeScript with no imports but its siblings: Deno (the functions) and Vite (the SPA) both load it.
 */
import { numberText } from './numbers.ts'

export const MIN_DISPUTE_REASON_LENGTH = 10
export const MAX_DISPUTE_REASON_LENGTH = 2000

export const DISPUTE_REASON_MESSAGES = {
  tooShort: `Describe the problem in at least ${MIN_DISPUTE_REASON_LENGTH} characters`,
  tooLong: `Keep the description under ${numberText(MAX_DISPUTE_REASON_LENGTH)} characters`,
} as const

/** What is wrong with a dispute's description (checked trimmed, as the database does), or null. */
export function disputeReasonProblem(reason: string): string | null {
  const length = reason.trim().length
  if (length < MIN_DISPUTE_REASON_LENGTH) return DISPUTE_REASON_MESSAGES.tooShort
  if (length > MAX_DISPUTE_REASON_LENGTH) return DISPUTE_REASON_MESSAGES.tooLong
  return null
}
