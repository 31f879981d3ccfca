import { adminQueryRoot } from '@/lib/admin-query-root'

/** Query keys of the admin's review tools; under the admin root, so any admin decision refreshes them. */
export const reviewKeys = {
  all: [...adminQueryRoot, 'review'] as const,
  sources: () => [...reviewKeys.all, 'sources'] as const,
  campaigns: () => [...reviewKeys.all, 'campaigns'] as const,
  catalog: () => [...reviewKeys.all, 'catalog'] as const,
  auditLog: () => [...reviewKeys.all, 'audit-log'] as const,
  revisions: (status: string) => [...reviewKeys.all, 'revisions', status] as const,
}
