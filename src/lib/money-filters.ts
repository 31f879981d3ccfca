/**
 * The Money searches (the admin's ledger, deposits and payout requests; the advertiser's own wallet statement) as URL
 * search parameters, so a filtered view can be linked and survives a reload. Tables may share a page, so each has
 * its own prefix (`tx_`, `dep_`, `pay_`, and `wal_` for the wallet);
 * empty values and the first page are left out of the URL. Values are passed on as they are: the database checks
 * them again and a hand-edited link gets its sentence ("Choose a status from the list"). Also what every such table
 * shares with its database function: the search's arguments, the export's row limit and its file name.
 */
import { useCallback } from 'react'
import { useSearchParams } from 'react-router-dom'

export type MoneyFilters = {
  search: string
  /** A transaction type (the ledger's; the wallet statement's kind); '' = every type. */
  type: string
  status: string
  /** UTC days, YYYY-MM-DD; '' = no bound. */
  from: string
  to: string
  /** 0-based; the URL shows it 1-based. */
  page: number
}
export type MoneyTable = 'tx' | 'dep' | 'pay' | 'wal'

export const NO_MONEY_FILTERS: MoneyFilters = { search: '', type: '', status: '', from: '', to: '', page: 0 }
const FIELDS = ['search', 'type', 'status', 'from', 'to'] as const
const NAMES: Record<(typeof FIELDS)[number], string> = {
  search: 'q',
  type: 'type',
  status: 'status',
  from: 'from',
  to: 'to',
}

export function readMoneyFilters(params: URLSearchParams, table: MoneyTable): MoneyFilters {
  const filters = { ...NO_MONEY_FILTERS }
  for (const field of FIELDS) filters[field] = params.get(`${table}_${NAMES[field]}`) ?? ''
  const page = Number(params.get(`${table}_page`))
  filters.page = Number.isSafeInteger(page) && page > 1 ? page - 1 : 0
  return filters
}

/** The same parameters with this table's filters replaced; other parameters (the other table's) are kept. */
export function writeMoneyFilters(params: URLSearchParams, table: MoneyTable, filters: MoneyFilters): URLSearchParams {
  const next = new URLSearchParams(params)
  for (const field of FIELDS) {
    const value = field === 'search' ? filters.search.trim() : filters[field]
    if (value) next.set(`${table}_${NAMES[field]}`, value)
    else next.delete(`${table}_${NAMES[field]}`)
  }
  if (filters.page > 0) next.set(`${table}_page`, String(filters.page + 1))
  else next.delete(`${table}_page`)
  return next
}

/** What admin_ledger, admin_deposits and admin_payout_requests return at most in one call (their `least(…, 10000)`),
 * and the most wallet_statement agrees to return. */
export const MONEY_EXPORT_LIMIT = 10_000

/** One page (or one export) of a Money table, and how many rows match in all. */
export type MoneyRows<T> = { rows: T[]; total: number }
/** What an export did: its file, how many rows it holds, how many matched. */
export type MoneyExportResult = { fileName: string; exported: number; total: number }

/** The search's arguments, leaving out what is not set (the function's defaults: no filter). */
export function moneySearchArgs(filters: MoneyFilters) {
  return {
    p_search: filters.search.trim() || undefined,
    p_status: filters.status || undefined,
    p_from: filters.from || undefined,
    p_to: filters.to || undefined,
  }
}

/** growletter-ledger-2026-11-26.csv: what it is and the UTC day it was taken. */
export const moneyCsvFileName = (what: 'ledger' | 'deposits' | 'payouts' | 'wallet', now = new Date()) =>
  `growletter-${what}-${now.toISOString().slice(0, 10)}.csv`

/** Whether anything narrows the table (to tell "nothing matches" from "nothing yet"). */
export const isFiltered = (f: MoneyFilters) => Boolean(f.search.trim() || f.type || f.status || f.from || f.to)

/** This table's filters from the URL, and a setter that replaces them (back does not replay each keystroke). */
export function useMoneyFilters(table: MoneyTable) {
  const [params, setParams] = useSearchParams()
  const filters = readMoneyFilters(params, table)
  const setFilters = useCallback(
    (next: MoneyFilters) => setParams((current) => writeMoneyFilters(current, table, next), { replace: true }),
    [setParams, table],
  )
  return [filters, setFilters] as const
}
