/**
 * How a bound (credits, a length) is written in a rule's message: whole numbers with thousands separators (10,000),
 * anything else with two decimals (0.50). Written out rather than `toLocaleString`, so a message is the same
 * in every runtime (Deno, Node, any browser locale) and equals the words SQL raises, which a test compares.
 */
export function numberText(amount: number): string {
  const fixed = Number.isInteger(amount) ? String(amount) : amount.toFixed(2)
  const [whole = '', fraction] = fixed.split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return fraction === undefined ? grouped : `${grouped}.${fraction}`
}

/** At most two decimals, allowing a float's noise (19.99 * 100 is 1998.9999999999998), never a third decimal. */
export function hasAtMostTwoDecimals(amount: number): boolean {
  return Math.abs(Math.round(amount * 100) - amount * 100) <= 1e-6
}
