/**
 * Users for the admin, searched by email or name (admin_list_users: emails are not readable through the
 * profiles table). One extra row is asked for to know whether a next page exists.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'
import { userKeys } from '../keys'

export const USERS_PAGE_SIZE = 20

export type AdminUser = {
  id: string
  email: string | null
  user_type: string
  full_name: string | null
  created_at: string
}
export type UsersVariables = { search: string; page: number }

/** The search form: any text (admin_list_users matches it against emails and names), sent trimmed. */
export const userSearchSchema = z.object({ search: z.string().transform((value) => value.trim()) })
export type UserSearchInput = z.input<typeof userSearchSchema>
export type UserSearchValues = z.output<typeof userSearchSchema>

export async function getUsers({ search, page }: UsersVariables): Promise<{ rows: AdminUser[]; hasMore: boolean }> {
  const { data, error } = await supabase.rpc(
    'admin_list_users',
    {
      p_search: search.trim() || undefined,
      p_limit: USERS_PAGE_SIZE + 1,
      p_offset: page * USERS_PAGE_SIZE,
    },
    { get: true },
  )
  if (error) throw error
  const rows = (data ?? []) as AdminUser[]
  return { rows: rows.slice(0, USERS_PAGE_SIZE), hasMore: rows.length > USERS_PAGE_SIZE }
}

export const usersQueryOptions = (vars: UsersVariables) =>
  queryOptions({
    queryKey: userKeys.list(vars.search, vars.page),
    queryFn: () => getUsers(vars),
    placeholderData: keepPreviousData,
  })

export const useUsersQuery = (vars: UsersVariables) => useQuery(usersQueryOptions(vars))
