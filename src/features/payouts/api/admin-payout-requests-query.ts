/**
 * Every publisher's payout requests for the admin (`admin_payout_requests`), open ones first, then newest, 20 a page:
 * searched by publisher email or name, transfer reference or Stripe's reason and filtered by status and UTC dates in
 * the database, which counts the matches (`total_count`) and the payouts in flight and failed (for the summary) on
 * every row, and refuses a bad filter with a sentence. A stable function: read by GET. `getAllPayoutRequestsExport`
 * asks for up to MONEY_EXPORT_LIMIT rows of the same search for a CSV file.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { MONEY_EXPORT_LIMIT, moneySearchArgs, type MoneyFilters, type MoneyRows } from '@/lib/money-filters'
import type { Database } from '@/types/database.types'
import { payoutKeys } from '../keys'

export const ADMIN_PAYOUTS_PAGE_SIZE = 20

export type AnyPayoutRequest = Database['public']['Functions']['admin_payout_requests']['Returns'][number]
export type PayoutRequestRows = MoneyRows<AnyPayoutRequest> & { inFlight: number; failed: number }

async function callAdminPayoutRequests(filters: MoneyFilters, limit: number, offset: number) {
  const { data, error } = await supabase.rpc(
    'admin_payout_requests',
    { ...moneySearchArgs(filters), p_limit: limit, p_offset: offset },
    { get: true },
  )
  if (error) throw error
  const rows = data ?? []
  const first = rows[0]
  // Every row carries the counts; a page past the end has none (and then the summary is not shown).
  return {
    rows,
    total: first ? Number(first.total_count) : 0,
    inFlight: first ? Number(first.in_flight_count) : 0,
    failed: first ? Number(first.failed_count) : 0,
  }
}

export const getAllPayoutRequests = (filters: MoneyFilters): Promise<PayoutRequestRows> =>
  callAdminPayoutRequests(filters, ADMIN_PAYOUTS_PAGE_SIZE, filters.page * ADMIN_PAYOUTS_PAGE_SIZE)

export const getAllPayoutRequestsExport = (filters: MoneyFilters): Promise<PayoutRequestRows> =>
  callAdminPayoutRequests(filters, MONEY_EXPORT_LIMIT, 0)

export const allPayoutRequestsQueryOptions = (filters: MoneyFilters) =>
  queryOptions({
    queryKey: payoutKeys.allRequestsSearch(filters),
    queryFn: () => getAllPayoutRequests(filters),
    placeholderData: keepPreviousData,
  })

export const useAllPayoutRequestsQuery = (filters: MoneyFilters) => useQuery(allPayoutRequestsQueryOptions(filters))
