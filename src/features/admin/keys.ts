/** Query keys of the admin feature; every key starts with 'admin' so one prefix invalidates them all. */
export const adminKeys = {
  all: ['admin'] as const,
  reviewSources: () => [...adminKeys.all, 'review', 'sources'] as const,
  reviewCampaigns: () => [...adminKeys.all, 'review', 'campaigns'] as const,
  auditLog: () => [...adminKeys.all, 'audit-log'] as const,
  users: (search: string, page: number) => [...adminKeys.all, 'users', search, page] as const,
  transactions: (filter: string, page: number) => [...adminKeys.all, 'transactions', filter, page] as const,
  payouts: () => [...adminKeys.all, 'payouts'] as const,
  deposits: (page: number) => [...adminKeys.all, 'deposits', page] as const,
  totals: () => [...adminKeys.all, 'totals'] as const,
}
