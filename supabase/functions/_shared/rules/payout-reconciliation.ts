/**
 * Payouts reconciled against Stripe's own list of transfers (issue 37): what Growletter recorded for each payout
 * sent through Stripe (its `tr_…` transfer, amount, connected account, what was reversed) beside what Stripe lists
 * for the publishers' accounts (GET /v1/transfers?destination=acct_…), and every difference in words an admin can act
 * on. The reconcile-payouts function computes it; the admin's payouts page shows it with these labels.
 *
 * Pure TypeScript with no imports: Deno (the function) and Vite (the SPA) both load it.
 */

/** A payout as the database gives it to compare (admin_payout_reconciliation_scope). */
export type RecordedPayout = {
  id: string
  publisher_id: string
  /** Credits (= US dollars), two decimals. */
  amount: number | string
  status: string
  transfer_reference: string | null
  /** The connected account it was sent to (acct_…), once sent. */
  destination: string | null
  amount_reversed: number | string
}

/** A publisher's connected account, with whom it belongs to. */
export type RecordedAccount = {
  account: string
  publisher_id: string
  publisher_email: string | null
  publisher_name: string | null
}

/** A transfer as Stripe lists it, reduced to what is compared (amounts in cents). */
export type ListedTransfer = {
  id: string
  amount: number
  amount_reversed: number
  reversed: boolean
  destination: string
  created: number
  metadata: Record<string, string>
}

export const DIFFERENCE_KINDS = [
  'missing_transfer',
  'amount_differs',
  'destination_differs',
  'reversed_at_stripe',
  'reversed_here_only',
  'transfer_without_payout',
] as const

export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number]

/** What each difference means, for the admin (the SPA shows `label` as the heading and `explain` under it). */
export const RECONCILIATION_DIFFERENCES: Record<DifferenceKind, { label: string; explain: string }> = {
  missing_transfer: {
    label: 'Transfer missing at Stripe',
    explain: "Recorded as paid here, but Stripe lists no such transfer to the publisher's account.",
  },
  amount_differs: {
    label: 'Amount differs',
    explain: 'Stripe transferred another amount than the payout recorded here.',
  },
  destination_differs: {
    label: 'Sent to another account',
    explain: 'Stripe sent the transfer to another connected account than the payout recorded here.',
  },
  reversed_at_stripe: {
    label: 'Reversed at Stripe, paid here',
    explain: "Stripe reversed more of the transfer than recorded here: the publisher's balance is missing it.",
  },
  reversed_here_only: {
    label: 'Reversed here, not at Stripe',
    explain: 'Recorded here as reversed, but Stripe lists the money as still transferred.',
  },
  transfer_without_payout: {
    label: 'Transfer without a paid payout',
    explain: 'Stripe lists a transfer to a publisher that no paid payout here accounts for.',
  },
}

export type Difference = {
  kind: DifferenceKind
  payout_id: string | null
  transfer_id: string | null
  account: string | null
  publisher: string | null
  /** What Growletter recorded, and what Stripe lists, in words. */
  recorded: string
  at_stripe: string
}

export type Reconciliation = {
  checked_at: string
  accounts: number
  /** Payouts with a Stripe transfer compared one by one. */
  payouts_checked: number
  transfers_seen: number
  differences: Difference[]
}

const cents = (credits: number | string) => Math.round(Number(credits) * 100)
const money = (amountInCents: number) => `${(amountInCents / 100).toFixed(2)} credits`

/**
 * Compares every payout recorded with a Stripe transfer (`tr_…`) to the transfers Stripe listed for the accounts:
 * the transfer must exist, with the same amount and destination and the same amount reversed; and every listed
 * transfer must belong to such a payout. A transfer whose payout is still being sent is in flight, not a difference.
 */
export function reconcilePayouts(
  payouts: readonly RecordedPayout[],
  transfers: readonly ListedTransfer[],
  accounts: readonly RecordedAccount[] = [],
): { payouts_checked: number; differences: Difference[] } {
  const byId = new Map(transfers.map((t) => [t.id, t]))
  const publisherOf = new Map(accounts.map((a) => [a.publisher_id, a.publisher_name || a.publisher_email]))
  const publisherAt = new Map(accounts.map((a) => [a.account, a.publisher_name || a.publisher_email]))
  const accounted = new Set<string>()
  const differences: Difference[] = []
  let checked = 0
  for (const p of payouts) {
    const ref = p.transfer_reference
    if (!ref?.startsWith('tr_')) continue
    checked++
    const base = { payout_id: p.id, transfer_id: ref, publisher: publisherOf.get(p.publisher_id) ?? null }
    const t = byId.get(ref)
    if (!t) {
      differences.push({
        ...base,
        kind: 'missing_transfer',
        account: p.destination,
        recorded: `${money(cents(p.amount))} paid${p.destination ? ` to ${p.destination}` : ''}`,
        at_stripe: 'no such transfer',
      })
      continue
    }
    accounted.add(t.id)
    const at = { ...base, account: t.destination }
    if (t.amount !== cents(p.amount)) {
      differences.push({ ...at, kind: 'amount_differs', recorded: money(cents(p.amount)), at_stripe: money(t.amount) })
    }
    if (p.destination && t.destination !== p.destination) {
      differences.push({ ...at, kind: 'destination_differs', recorded: p.destination, at_stripe: t.destination })
    }
    const reversedHere = cents(p.amount_reversed)
    if (t.amount_reversed !== reversedHere) {
      differences.push({
        ...at,
        kind: t.amount_reversed > reversedHere ? 'reversed_at_stripe' : 'reversed_here_only',
        recorded: `${money(reversedHere)} reversed (${p.status})`,
        at_stripe: `${money(t.amount_reversed)} reversed${t.reversed ? ' (the whole transfer)' : ''}`,
      })
    }
  }
  const statusOf = new Map(payouts.map((p) => [p.id, p.status]))
  for (const t of transfers) {
    if (accounted.has(t.id)) continue
    const payoutId = t.metadata.payout_id ?? null
    const status = payoutId ? statusOf.get(payoutId) : undefined
    if (status === 'sending') continue
    differences.push({
      kind: 'transfer_without_payout',
      payout_id: status ? payoutId : null,
      transfer_id: t.id,
      account: t.destination,
      publisher: publisherAt.get(t.destination) ?? null,
      recorded: status ? `payout ${status}, without this transfer` : 'no payout',
      at_stripe: `${money(t.amount)} transferred${t.amount_reversed ? `, ${money(t.amount_reversed)} reversed` : ''}`,
    })
  }
  return { payouts_checked: checked, differences }
}
