/**
 * Search, selects and an optional date range over a Money table (the admin's, or the advertiser's own wallet, which
 * has no search box). The values live in the URL (money-filters.ts); the search commits after a pause, any change
 * goes back to the first page. The date range is off ("Any date") until asked for, then the shared picker checks it
 * before the database checks it again.
 */
import { useCallback, useId } from 'react'
import { SearchIcon } from 'lucide-react'
import { DateRangePicker } from '@/components/date-range-picker'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { lastDays } from '@/lib/date-range'
import { useDebouncedSearch } from '@/lib/use-debounced-search'
import type { MoneyFilters } from '@/lib/money-filters'

export type FilterSelect = {
  field: 'type' | 'status'
  label: string
  /** The choice that sets no filter, e.g. "All statuses". */
  anyLabel: string
  options: readonly { value: string; label: string }[]
}

const selectClass =
  'h-10 rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none'

export function MoneyFilterBar({
  filters,
  onChange,
  label,
  searchLabel,
  selects,
}: {
  filters: MoneyFilters
  onChange: (next: MoneyFilters) => void
  /** Names the search landmark: two tables on one page each have their own ("Search transactions"). */
  label: string
  /** The search box's label; without one the bar has no search box (and is a group of filters, not a search). */
  searchLabel?: string
  selects: readonly FilterSelect[]
}) {
  const id = useId()
  const { type, status, from, to } = filters
  const commitSearch = useCallback(
    (value: string) => onChange({ search: value, type, status, from, to, page: 0 }),
    [onChange, type, status, from, to],
  )
  const [search, setSearch] = useDebouncedSearch(filters.search, commitSearch)
  // Every other change carries what is typed but not yet committed, and starts again from the first page.
  const change = (patch: Partial<MoneyFilters>) => onChange({ ...filters, search, ...patch, page: 0 })
  const dated = Boolean(from || to)

  return (
    <div className="space-y-3">
      <form
        role={searchLabel ? 'search' : 'group'}
        aria-label={label}
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
        onSubmit={(e) => e.preventDefault()}
      >
        {searchLabel && (
          <div className="flex flex-1 flex-col gap-1.5">
            <Label htmlFor={`${id}-search`}>{searchLabel}</Label>
            <div className="relative">
              <SearchIcon
                className="absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
                aria-hidden="true"
              />
              <Input
                id={`${id}-search`}
                type="search"
                value={search}
                className="pl-9"
                onChange={(e) => setSearch(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') commitSearch(search)
                }}
              />
            </div>
          </div>
        )}
        {selects.map((select) => (
          <div key={select.field} className="flex flex-col gap-1.5 sm:w-48">
            <Label htmlFor={`${id}-${select.field}`}>{select.label}</Label>
            <select
              id={`${id}-${select.field}`}
              value={filters[select.field]}
              onChange={(e) => change({ [select.field]: e.target.value })}
              className={selectClass}
            >
              <option value="">{select.anyLabel}</option>
              {select.options.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
        ))}
      </form>
      {dated ? (
        <div className="flex flex-wrap items-end gap-3">
          <DateRangePicker
            // A new range from outside (the back button, a preset) replaces whatever was being typed.
            key={`${from}|${to}`}
            value={{ from, to }}
            onChange={(range) => change({ from: range.from, to: range.to })}
          />
          <Button type="button" size="sm" variant="ghost" onClick={() => change({ from: '', to: '' })}>
            Any date
          </Button>
        </div>
      ) : (
        <Button type="button" size="sm" variant="outline" onClick={() => change(lastDays(30))}>
          Filter by date
        </Button>
      )}
    </div>
  )
}
