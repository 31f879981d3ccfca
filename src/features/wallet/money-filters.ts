/**
 * The admin's Money searches (ledger and deposits) as URL search parameters, so a filtered view can be linked and
 * survives a reload. Both tables live on one page, so each has its own prefix (`tx_`, `dep_`); empty values and
 * the first page are left out of the URL. Values are passed on as they are: the database checks them again and a
 * hand-edited link gets its sentence ("Choose a status from the list").
 */
import { useCallback } from 'react'
import { useSearchParams } from 'react-router-dom'

export type MoneyFilters = {
  search: string
  /** A transaction type (ledger only); '' = every type. */
  type: string
  status: string
  /** UTC days, YYYY-MM-DD; '' = no bound. */
  from: string
  to: string
  /** 0-based; the URL shows it 1-based. */
  page: number
}
export type MoneyTable = 'tx' | 'dep'

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
