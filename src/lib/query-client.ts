/** TanStack Query defaults from SPEC §9: one retry, no refetch on window focus, five minutes fresh. */
import { QueryClient, type InvalidateOptions, type InvalidateQueryFilters } from '@tanstack/react-query'

export const STALE_TIME_MS = 5 * 60 * 1000

/**
 * After a write, every mutation invalidates what it changed. TanStack Query hands an invalidation the promise
 * of a fetch already in flight when the query has no data yet (it only cancels and restarts fetches of queries
 * that have data), so a first read that began *before* the write would answer for it: the screen would show
 * the old rows and, fresh for five minutes, never correct itself. (Found by the end-to-end test of revisions:
 * under load the revision panel's first read was still in flight when the edit was saved.) Those reads are
 * cancelled first, so the refetch starts after the write.
 */
export class WriteAwareQueryClient extends QueryClient {
  override async invalidateQueries(filters?: InvalidateQueryFilters, options?: InvalidateOptions): Promise<void> {
    // With refetchType 'none' nothing would start the read again, so a cancelled one would stay empty.
    if (filters?.refetchType !== 'none')
      await this.cancelQueries({
        ...filters,
        predicate: (query) =>
          query.state.data === undefined &&
          query.state.fetchStatus === 'fetching' &&
          (filters?.predicate ? filters.predicate(query) : true),
      })
    return super.invalidateQueries(filters, options)
  }
}

export function createQueryClient() {
  return new WriteAwareQueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false, staleTime: STALE_TIME_MS },
      mutations: { retry: 0 },
    },
  })
}
