/**
 * Deposit limits (PRODUCT.md "Wallet"): one payment buys 10 to 10,000 credits (1 credit = 1 US dollar), with at
 * most two decimals. Defined here once: the deposit dialog (src/features/wallet) checks a typed amount with
 * `depositTextProblem` before calling, and `create-checkout-session` checks the JSON body with
 * `parseDepositAmount`, which is the check that counts. SQL repeats the bounds where money is recorded
 * (`deposits.amount`'s check, `open_deposit`, `credit_deposit`), because the database must refuse a bad row
 * whoever writes it; supabase/tests/rule-bounds.test.ts pins those to the constants below.
 *
 * Pure TypeScript with no imports but its siblings: Deno (the functions) and Vite (the SPA) both load it.
 */
import { numberText, hasAtMostTwoDecimals } from './numbers.ts'

export const MIN_DEPOSIT = 10
export const MAX_DEPOSIT = 10_000

export const DEPOSIT_MESSAGES = {
  missing: `Enter an amount between ${numberText(MIN_DEPOSIT)} and ${numberText(MAX_DEPOSIT)} credits.`,
  notNumber: 'The amount must be a number of credits, for example 25 or 25.50.',
  tooSmall: `The minimum deposit is ${numberText(MIN_DEPOSIT)} credits.`,
  tooLarge: `The maximum deposit is ${numberText(MAX_DEPOSIT)} credits per payment.`,
  decimals: 'Use at most two decimals, for example 25.50.',
} as const

/** The words the database raises for an amount out of bounds (asserted by the SQL-pinning test). */
export const DEPOSIT_SQL_MESSAGE = `Deposits must be between ${numberText(MIN_DEPOSIT)} and ${numberText(MAX_DEPOSIT)} credits`

/** What is wrong with a number of credits, or null when a deposit may be that amount. */
export function depositAmountProblem(amount: number): string | null {
  if (!Number.isFinite(amount)) return DEPOSIT_MESSAGES.notNumber
  if (amount < MIN_DEPOSIT) return DEPOSIT_MESSAGES.tooSmall
  if (amount > MAX_DEPOSIT) return DEPOSIT_MESSAGES.tooLarge
  return hasAtMostTwoDecimals(amount) ? null : DEPOSIT_MESSAGES.decimals
}

/**
 * What is wrong with an amount as a person typed it ("25", " 25.50 "), or null. Checked in the order a person
 * fixes them: something, a number, the bounds, then the decimals as typed ("25.500" is refused: the field
 * asks for two decimals even when the third is a zero).
 */
export function depositTextProblem(text: string): string | null {
  const trimmed = text.trim()
  if (!trimmed) return DEPOSIT_MESSAGES.missing
  if (!/^-?\d+(\.\d+)?$/.test(trimmed)) return DEPOSIT_MESSAGES.notNumber
  const amount = Number(trimmed)
  if (amount < MIN_DEPOSIT) return DEPOSIT_MESSAGES.tooSmall
  if (amount > MAX_DEPOSIT) return DEPOSIT_MESSAGES.tooLarge
  return /\.\d{3,}$/.test(trimmed) ? DEPOSIT_MESSAGES.decimals : null
}

/**
 * A request body's `amount` (a JSON number) as whole cents, which Stripe wants, or the message saying what to
 * change. Strings are refused: the dialog sends a number, and a string here means a client of its own.
 */
export function parseDepositAmount(value: unknown): { cents: number } | { error: string } {
  if (value === undefined || value === null || value === '') return { error: DEPOSIT_MESSAGES.missing }
  if (typeof value !== 'number') return { error: DEPOSIT_MESSAGES.notNumber }
  const problem = depositAmountProblem(value)
  return problem ? { error: problem } : { cents: Math.round(value * 100) }
}
