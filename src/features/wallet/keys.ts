import { adminQueryRoot } from '@/lib/admin-query-root'
import type { MoneyFilters } from '@/lib/money-filters'

/** Query keys of the wallet feature; an advertiser's keys start with 'wallet' so one prefix invalidates them all. */
export const walletKeys = {
  all: ['wallet'] as const,
  summary: (userId: string) => [...walletKeys.all, 'summary', userId] as const,
  transactions: (userId: string, filters: MoneyFilters) =>
    [...walletKeys.all, 'transactions', userId, filters] as const,
  deposits: (userId: string, watch: string | null) => [...walletKeys.all, 'deposits', userId, watch] as const,
  // The admin's views of every wallet: under the admin root, so any admin decision refreshes them.
  adminDeposits: (filters: MoneyFilters) => [...adminQueryRoot, 'wallet', 'deposits', filters] as const,
  adminLedger: (filters: MoneyFilters) => [...adminQueryRoot, 'wallet', 'ledger', filters] as const,
  marketplaceTotals: () => [...adminQueryRoot, 'wallet', 'totals'] as const,
}
