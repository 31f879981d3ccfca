import { adminQueryRoot } from '@/lib/admin-query-root'

/** Query keys of the admin's user list; under the admin root, so any admin decision refreshes them. */
export const userKeys = {
  all: [...adminQueryRoot, 'users'] as const,
  list: (search: string, page: number) => [...userKeys.all, search, page] as const,
  one: (userId: string) => [...userKeys.all, 'one', userId] as const,
}
