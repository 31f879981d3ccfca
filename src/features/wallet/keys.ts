/** Query keys of the wallet feature; every key starts with 'wallet' so one prefix invalidates them all. */
export const walletKeys = {
  all: ['wallet'] as const,
  summary: (userId: string) => [...walletKeys.all, 'summary', userId] as const,
  transactions: (userId: string, page: number) => [...walletKeys.all, 'transactions', userId, page] as const,
  deposits: (userId: string, watch: string | null) => [...walletKeys.all, 'deposits', userId, watch] as const,
}
