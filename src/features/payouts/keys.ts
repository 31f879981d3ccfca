import { adminQueryRoot } from '@/lib/admin-query-root'

/**
 * Query keys of payouts: a publisher's own (under 'payouts' and their id) and the admin's list of every
 * request (under the admin root, so any admin decision refreshes it).
 */
export const payoutKeys = {
  all: ['payouts'] as const,
  publisher: (userId: string) => [...payoutKeys.all, userId] as const,
  requests: (userId: string) => [...payoutKeys.publisher(userId), 'requests'] as const,
  earnings: (userId: string) => [...payoutKeys.publisher(userId), 'earnings'] as const,
  account: (userId: string) => [...payoutKeys.publisher(userId), 'account'] as const,
  allRequests: () => [...adminQueryRoot, 'payouts'] as const,
}
