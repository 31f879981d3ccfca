/** One page of the signed-in user's ledger, newest first, with the total row count for the pager. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import type { SortingState } from '@tanstack/react-table'
import { supabase } from '@/lib/supabase'
import { serverSort } from '@/lib/server-sort'
import type { Tables } from '@/types/database.types'
import { walletKeys } from '../keys'

export const TRANSACTIONS_PAGE_SIZE = 20

export type WalletTransaction = Pick<
  Tables<'wallet_transactions'>,
  'id' | 'amount' | 'type' | 'status' | 'description' | 'created_at'
>
export type WalletTransactionsVariables = { userId: string; page: number; sorting?: SortingState }
const SORTABLE = ['created_at', 'amount'] as const
export type WalletTransactionsPage = { rows: WalletTransaction[]; total: number }

export async function getWalletTransactions({
  userId,
  page,
  sorting = [],
}: WalletTransactionsVariables): Promise<WalletTransactionsPage> {
  const from = page * TRANSACTIONS_PAGE_SIZE
  const sort = serverSort(sorting, SORTABLE, 'created_at')
  const { data, error, count } = await supabase
    .from('wallet_transactions')
    .select('id, amount, type, status, description, created_at', { count: 'exact' })
    .eq('user_id', userId)
    .order(sort.column, { ascending: sort.ascending })
    .order('id', { ascending: sort.ascending })
    .range(from, from + TRANSACTIONS_PAGE_SIZE - 1)
  if (error) throw error
  return { rows: data ?? [], total: count ?? 0 }
}

export const walletTransactionsQueryOptions = (vars: WalletTransactionsVariables) =>
  queryOptions({
    queryKey: walletKeys.transactions(vars.userId, vars.page, vars.sorting ?? []),
    queryFn: () => getWalletTransactions(vars),
    // The table keeps the previous page on screen while the next one loads, so the pager does not jump.
    placeholderData: keepPreviousData,
  })

export const useWalletTransactionsQuery = (vars: WalletTransactionsVariables) =>
  useQuery(walletTransactionsQueryOptions(vars))
