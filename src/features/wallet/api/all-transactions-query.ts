/** Every ledger row of the marketplace, 20 a page, newest first; `holds` narrows to charges still on hold. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import type { SortingState } from '@tanstack/react-table'
import { supabase } from '@/lib/supabase'
import { serverSort } from '@/lib/server-sort'
import { walletKeys } from '../keys'

export const ADMIN_TRANSACTIONS_PAGE_SIZE = 20

export type TransactionFilter = 'all' | 'holds'
export type AllTransactionsVariables = { filter: TransactionFilter; page: number; sorting?: SortingState }
const SORTABLE = ['created_at', 'amount'] as const

export async function getAllTransactions({ filter, page, sorting = [] }: AllTransactionsVariables) {
  const from = page * ADMIN_TRANSACTIONS_PAGE_SIZE
  const sort = serverSort(sorting, SORTABLE, 'created_at')
  let query = supabase
    .from('wallet_transactions')
    .select('id, amount, type, status, description, created_at, available_at, user:profiles(full_name)', {
      count: 'exact',
    })
    .order(sort.column, { ascending: sort.ascending })
    .order('id', { ascending: sort.ascending })
    .range(from, from + ADMIN_TRANSACTIONS_PAGE_SIZE - 1)
  if (filter === 'holds') query = query.eq('type', 'hold').eq('status', 'pending')
  const { data, error, count } = await query
  if (error) throw error
  return { rows: data ?? [], total: count ?? 0 }
}

export type AdminTransaction = Awaited<ReturnType<typeof getAllTransactions>>['rows'][number]

export const allTransactionsQueryOptions = (vars: AllTransactionsVariables) =>
  queryOptions({
    queryKey: walletKeys.allTransactions(vars.filter, vars.page, vars.sorting ?? []),
    queryFn: () => getAllTransactions(vars),
    placeholderData: keepPreviousData,
  })

export const useAllTransactionsQuery = (vars: AllTransactionsVariables) => useQuery(allTransactionsQueryOptions(vars))
