/**
 * Publisher earnings from the ledger (PRODUCT.md "Money"): pending = earnings still in screening, available
 * = completed earnings minus completed payouts (the balance), paid = completed payouts.
 */
export type LedgerRow = { type: string; status: string; amount: number }
export type Earnings = { pending: number; available: number; paid: number }

const cents = (value: number) => Math.round(value * 100)

export function summariseEarnings(rows: readonly LedgerRow[]): Earnings {
  let pending = 0
  let available = 0
  let paid = 0
  for (const row of rows) {
    const amount = cents(Number(row.amount))
    if (row.type === 'earning' && row.status === 'pending') pending += amount
    if (row.status === 'completed') {
      available += amount
      if (row.type === 'payout') paid -= amount
    }
  }
  return { pending: pending / 100, available: available / 100, paid: paid / 100 }
}

export const formatCredits = (value: number) =>
  `${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} credits`
