/** Query keys of the publisher area; every key starts with 'publisher' and the signed-in user's id. */
export const publisherKeys = {
  all: ['publisher'] as const,
  user: (userId: string) => [...publisherKeys.all, userId] as const,
  sources: (userId: string) => [...publisherKeys.user(userId), 'sources'] as const,
  clicks: (userId: string) => [...publisherKeys.user(userId), 'clicks'] as const,
  earnings: (userId: string) => [...publisherKeys.user(userId), 'earnings'] as const,
  week: (userId: string) => [...publisherKeys.user(userId), 'week'] as const,
  stats: (userId: string) => [...publisherKeys.user(userId), 'stats'] as const,
  statsBySource: (userId: string) => [...publisherKeys.user(userId), 'stats-by-source'] as const,
  campaigns: () => [...publisherKeys.all, 'active-campaigns'] as const,
  payouts: (userId: string) => [...publisherKeys.user(userId), 'payouts'] as const,
}
