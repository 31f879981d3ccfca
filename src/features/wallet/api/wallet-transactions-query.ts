/**
 * One page of the signed-in user's wallet statement (`wallet_statement`), newest first: one row per charge whose
 * status moves from on hold to charged or refunded (with the amount given back), and every other movement as it
 * is. The database builds the statement and counts its rows; the table only formats them.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toCredits } from '@/lib/format'
import { walletKeys } from '../keys'

export const TRANSACTIONS_PAGE_SIZE = 20

export type StatementRow = {
  id: string
  occurredAt: string
  kind: string
  status: string
  description: string | null
  amount: number
  refunded: number
  settledAt: string | null
}
export type WalletTransactionsVariables = { userId: string; page: number }
export type WalletTransactionsPage = { rows: StatementRow[]; total: number }

export async function getWalletTransactions({ page }: WalletTransactionsVariables): Promise<WalletTransactionsPage> {
  const { data, error } = await supabase.rpc(
    'wallet_statement',
    {
      p_limit: TRANSACTIONS_PAGE_SIZE,
      p_offset: page * TRANSACTIONS_PAGE_SIZE,
    },
    { get: true },
  )
  if (error) throw error
  const rows = data ?? []
  return {
    rows: rows.map((r) => ({
      id: r.id,
      occurredAt: r.occurred_at,
      kind: r.kind,
      status: r.status,
      description: r.description,
      amount: toCredits(r.amount),
      refunded: toCredits(r.refunded),
      settledAt: r.settled_at,
    })),
    // Every row carries the statement's length; a page past the end has none, so ask for the first page's count.
    total: rows.length > 0 ? Number(rows[0]!.total_count) : 0,
  }
}

export const walletTransactionsQueryOptions = (vars: WalletTransactionsVariables) =>
  queryOptions({
    queryKey: walletKeys.transactions(vars.userId, vars.page),
    queryFn: () => getWalletTransactions(vars),
    // The table keeps the previous page on screen while the next one loads, so the pager does not jump.
    placeholderData: keepPreviousData,
  })

export const useWalletTransactionsQuery = (vars: WalletTransactionsVariables) =>
  useQuery(walletTransactionsQueryOptions(vars))
