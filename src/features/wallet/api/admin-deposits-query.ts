/**
 * Every deposit of the marketplace for the admin (`admin_deposits`), newest first, 20 a page, with its Stripe
 * reference: searched by email, name or Stripe reference and filtered by status and UTC dates in the database,
 * which counts the matches and refuses a bad filter with a sentence. A stable function: read by GET.
 * `getAdminDepositsExport` asks for up to MONEY_EXPORT_LIMIT rows of the same search for a CSV file.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import type { Database } from '@/types/database.types'
import { walletKeys } from '../keys'
import { MONEY_EXPORT_LIMIT, moneySearchArgs, type MoneyFilters, type MoneyRows } from '@/lib/money-filters'

export const ADMIN_DEPOSITS_PAGE_SIZE = 20

export type AdminDepositRow = Database['public']['Functions']['admin_deposits']['Returns'][number]

async function callAdminDeposits(filters: MoneyFilters, limit: number, offset: number) {
  const { data, error } = await supabase.rpc(
    'admin_deposits',
    { ...moneySearchArgs(filters), p_limit: limit, p_offset: offset },
    { get: true },
  )
  if (error) throw error
  const rows = data ?? []
  return { rows, total: rows.length > 0 ? Number(rows[0]!.total_count) : 0 }
}

export const getAdminDeposits = (filters: MoneyFilters): Promise<MoneyRows<AdminDepositRow>> =>
  callAdminDeposits(filters, ADMIN_DEPOSITS_PAGE_SIZE, filters.page * ADMIN_DEPOSITS_PAGE_SIZE)

export const getAdminDepositsExport = (filters: MoneyFilters): Promise<MoneyRows<AdminDepositRow>> =>
  callAdminDeposits(filters, MONEY_EXPORT_LIMIT, 0)

export const adminDepositsQueryOptions = (filters: MoneyFilters) =>
  queryOptions({
    queryKey: walletKeys.adminDeposits(filters),
    queryFn: () => getAdminDeposits(filters),
    placeholderData: keepPreviousData,
  })

export const useAdminDepositsQuery = (filters: MoneyFilters) => useQuery(adminDepositsQueryOptions(filters))
