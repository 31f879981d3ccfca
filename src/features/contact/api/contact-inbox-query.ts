/** The /contact inbox for admins (admin_contact_messages), newest first, a page at a time with the total. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { contactKeys, type InboxState } from '../keys'

export const INBOX_PAGE_SIZE = 20

export type InboxVariables = { state: InboxState; page: number }

export async function getContactInbox({ state, page }: InboxVariables) {
  const { data, error } = await supabase.rpc(
    'admin_contact_messages',
    { p_state: state, p_limit: INBOX_PAGE_SIZE, p_offset: page * INBOX_PAGE_SIZE },
    { get: true },
  )
  if (error) throw error
  const rows = data ?? []
  return { rows, total: rows.length > 0 ? Number(rows[0]!.total_count) : 0 }
}

export type ContactMessage = Awaited<ReturnType<typeof getContactInbox>>['rows'][number]

export const contactInboxQueryOptions = (vars: InboxVariables) =>
  queryOptions({
    queryKey: contactKeys.page(vars.state, vars.page),
    queryFn: () => getContactInbox(vars),
    placeholderData: keepPreviousData,
  })

export const useContactInboxQuery = (vars: InboxVariables) => useQuery(contactInboxQueryOptions(vars))
