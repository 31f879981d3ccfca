/**
 * Every ledger row of the marketplace for the admin (`admin_ledger`), newest first, 20 a page: searched by email,
 * name, reference or description and filtered by type, status and UTC dates in the database, which counts the
 * matches (`total_count` on every row) and refuses a bad filter with a sentence. A stable function: read by GET.
 * `getAdminLedgerExport` asks for up to MONEY_EXPORT_LIMIT rows of the same search for a CSV file.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import type { Database } from '@/types/database.types'
import { walletKeys } from '../keys'
import { MONEY_EXPORT_LIMIT, moneySearchArgs, type MoneyFilters, type MoneyRows } from '@/lib/money-filters'

export const ADMIN_LEDGER_PAGE_SIZE = 20

export type AdminLedgerRow = Database['public']['Functions']['admin_ledger']['Returns'][number]

async function callAdminLedger(filters: MoneyFilters, limit: number, offset: number) {
  const { data, error } = await supabase.rpc(
    'admin_ledger',
    { ...moneySearchArgs(filters), p_type: filters.type || undefined, p_limit: limit, p_offset: offset },
    { get: true },
  )
  if (error) throw error
  const rows = data ?? []
  // Every row carries the number of matches; a page past the end has none.
  return { rows, total: rows.length > 0 ? Number(rows[0]!.total_count) : 0 }
}

export const getAdminLedger = (filters: MoneyFilters): Promise<MoneyRows<AdminLedgerRow>> =>
  callAdminLedger(filters, ADMIN_LEDGER_PAGE_SIZE, filters.page * ADMIN_LEDGER_PAGE_SIZE)

export const getAdminLedgerExport = (filters: MoneyFilters): Promise<MoneyRows<AdminLedgerRow>> =>
  callAdminLedger(filters, MONEY_EXPORT_LIMIT, 0)

export const adminLedgerQueryOptions = (filters: MoneyFilters) =>
  queryOptions({
    queryKey: walletKeys.adminLedger(filters),
    queryFn: () => getAdminLedger(filters),
    placeholderData: keepPreviousData,
  })

export const useAdminLedgerQuery = (filters: MoneyFilters) => useQuery(adminLedgerQueryOptions(filters))
