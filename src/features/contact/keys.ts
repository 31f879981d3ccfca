import { adminQueryRoot } from '@/lib/admin-query-root'

/** Query keys of the admin's contact inbox; under the admin root, so any admin decision refreshes them. */
export const contactKeys = {
  inbox: [...adminQueryRoot, 'contact-messages'] as const,
  page: (state: InboxState, page: number) => [...contactKeys.inbox, state, page] as const,
}

export type InboxState = 'unhandled' | 'handled' | 'all'
