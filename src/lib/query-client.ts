/** TanStack Query defaults from SPEC §9: one retry, no refetch on window focus, five minutes fresh. */
import { QueryClient } from '@tanstack/react-query'

export const STALE_TIME_MS = 5 * 60 * 1000

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false, staleTime: STALE_TIME_MS },
      mutations: { retry: 0 },
    },
  })
}
