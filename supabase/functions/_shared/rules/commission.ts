/**
 * The platform fee (PRODUCT.md "Money"): a publisher earns the newsletter's price per confirmed subscriber minus
 * 20%, rounded to the cent. Defined here once for TypeScript (the submit form's pricing guidance); SQL states it
 * once in `private.publisher_earning`, which every new SQL computation calls, and
 * supabase/tests/rule-bounds.test.ts pins that function's answers to `publisherEarning` below.
 *
 * Pure TypeScript with no imports: Deno (the functions) and Vite (the SPA) both load it.
 */
export const PLATFORM_FEE_RATE = 0.2

/** What a publisher earns for one paid subscriber at this price, in credits with two decimals. */
export function publisherEarning(price: number): number {
  return Math.round(price * (1 - PLATFORM_FEE_RATE) * 100 + Number.EPSILON) / 100
}
