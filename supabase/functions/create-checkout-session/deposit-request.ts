/**
 * What a deposit request may contain: an amount in credits (1 credit = 1 US dollar), a JSON number within the
 * deposit limits of ../_shared/rules/deposit.ts, the module the deposit dialog checks with too: same bounds,
 * same words. This is the check that counts.
 */
import { HttpError } from '../_shared/http.ts'
import { parseDepositAmount } from '../_shared/rules/deposit.ts'

/** The amount in whole cents, as Stripe wants it, or a 400 saying what to change. */
export function parseDepositCents(value: unknown): number {
  const parsed = parseDepositAmount(value)
  if ('error' in parsed) throw new HttpError(400, parsed.error)
  return parsed.cents
}
