import { adminQueryRoot } from '@/lib/admin-query-root'
import type { MoneyFilters } from '@/lib/money-filters'

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
  /** One search of every request (admin_payout_requests); under allRequests, so a decision refreshes each. */
  allRequestsSearch: (filters: MoneyFilters) => [...payoutKeys.allRequests(), filters] as const,
}
