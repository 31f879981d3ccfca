/**
 * The first element of every admin view's query key, whatever feature the view lives in (review, users,
 * wallet, payouts). An admin decision can change figures on several of them at once (marking a payout paid
 * moves the totals and the ledger and writes the audit log), so an admin mutation invalidates this one prefix
 * instead of naming features it must not import.
 */
export const adminQueryRoot = ['admin'] as const
