/**
 * One page of the signed-in user's wallet statement (`wallet_statement`), newest first: one row per charge whose
 * status moves from on hold to charged or refunded (with the amount given back), and every other movement as it
 * is. The database builds the statement, filters it by kind, status and UTC days, and counts the matching rows
 * (`total_count` on every row); it refuses a bad filter with a sentence. A stable function: read by GET.
 * `getWalletStatementExport` asks for up to MONEY_EXPORT_LIMIT rows of the same filters for a CSV file.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toCredits } from '@/lib/format'
import { MONEY_EXPORT_LIMIT, type MoneyFilters, type MoneyRows } from '@/lib/money-filters'
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
  /** What to reconcile it with: a charge's subscriber and source, a deposit's Stripe payment (else the reference). */
  subscriberEmail: string | null
  sourceName: string | null
  reference: string | null
}
/** The wallet has no search box: `filters.search` is not sent. */
export type WalletTransactionsVariables = { userId: string; filters: MoneyFilters }
export type WalletTransactionsPage = MoneyRows<StatementRow>

async function callWalletStatement(filters: MoneyFilters, limit: number, offset: number) {
  const { data, error } = await supabase.rpc(
    'wallet_statement',
    {
      p_limit: limit,
      p_offset: offset,
      // Unset filters are left out: the function's defaults mean "any".
      p_kind: filters.type || undefined,
      p_status: filters.status || undefined,
      p_from: filters.from || undefined,
      p_to: filters.to || undefined,
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
      subscriberEmail: r.subscriber_email ?? null,
      sourceName: r.source_name ?? null,
      reference: r.reference ?? null,
    })),
    // Every row carries the number of matches; a page past the end has none.
    total: rows.length > 0 ? Number(rows[0]!.total_count) : 0,
  }
}

export const getWalletTransactions = ({ filters }: WalletTransactionsVariables): Promise<WalletTransactionsPage> =>
  callWalletStatement(filters, TRANSACTIONS_PAGE_SIZE, filters.page * TRANSACTIONS_PAGE_SIZE)

export const getWalletStatementExport = (filters: MoneyFilters): Promise<WalletTransactionsPage> =>
  callWalletStatement(filters, MONEY_EXPORT_LIMIT, 0)

export const walletTransactionsQueryOptions = (vars: WalletTransactionsVariables) =>
  queryOptions({
    queryKey: walletKeys.transactions(vars.userId, vars.filters),
    queryFn: () => getWalletTransactions(vars),
    // The table keeps the previous page on screen while the next one loads, so the pager does not jump.
    placeholderData: keepPreviousData,
  })

export const useWalletTransactionsQuery = (vars: WalletTransactionsVariables) =>
  useQuery(walletTransactionsQueryOptions(vars))
