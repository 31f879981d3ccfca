/**
 * The price range of a newsletter (PRODUCT.md "Campaigns"): an advertiser pays 0.50 to 50.00 credits per
 * confirmed subscriber, with at most two decimals. Defined here once: the campaign form (src/features/campaigns)
 * checks it; the database's check on `campaigns.price_per_subscriber` is the check that counts, pinned to these
 * constants by supabase/tests/rule-bounds.test.ts.
 *
 * Pure TypeScript with no imports but its siblings: Deno (the functions) and Vite (the SPA) both load it.
 */
import { numberText, hasAtMostTwoDecimals } from './numbers.ts'

export const MIN_PRICE_PER_SUBSCRIBER = 0.5
export const MAX_PRICE_PER_SUBSCRIBER = 50

// The bounds are written with two decimals here, as a price is shown everywhere else.
const price = (amount: number) => numberText(amount).replace(/^(\d+)$/, '$1.00')

export const PRICE_MESSAGES = {
  missing: 'Enter a price per subscriber',
  tooLow: `Price per subscriber must be at least ${price(MIN_PRICE_PER_SUBSCRIBER)} credits`,
  tooHigh: `Price per subscriber must be at most ${price(MAX_PRICE_PER_SUBSCRIBER)} credits`,
  decimals: 'Use at most two decimals',
} as const

/** The range in a sentence ("0.50 to 50.00"), and as a form's hint says it. */
export const PRICE_RANGE_TEXT = `${price(MIN_PRICE_PER_SUBSCRIBER)} to ${price(MAX_PRICE_PER_SUBSCRIBER)}`
export const PRICE_RANGE_HINT = `Between ${price(MIN_PRICE_PER_SUBSCRIBER)} and ${price(MAX_PRICE_PER_SUBSCRIBER)}`

/** What is wrong with a price per subscriber, or null. */
export function priceProblem(amount: number): string | null {
  if (!Number.isFinite(amount)) return PRICE_MESSAGES.missing
  if (amount < MIN_PRICE_PER_SUBSCRIBER) return PRICE_MESSAGES.tooLow
  if (amount > MAX_PRICE_PER_SUBSCRIBER) return PRICE_MESSAGES.tooHigh
  return hasAtMostTwoDecimals(amount) ? null : PRICE_MESSAGES.decimals
}
