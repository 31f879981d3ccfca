/** Search by name and filter by category; the values live in the URL so a filtered view can be shared. */
import { useId } from 'react'
import { SearchIcon } from 'lucide-react'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { useDebouncedSearch } from '@/lib/use-debounced-search'
import type { AudienceFilters, AudienceSort } from '../keys'
import { categoryOptions } from '@/lib/vocabulary-catalog'

export function DirectoryFilters({
  filters,
  onChange,
}: {
  filters: AudienceFilters
  onChange: (next: AudienceFilters) => void
}) {
  const id = useId()
  const [search, setSearch] = useDebouncedSearch(filters.search, (value) => onChange({ ...filters, search: value }))

  return (
    <form role="search" className="flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={(e) => e.preventDefault()}>
      <div className="flex flex-1 flex-col gap-1.5">
        <Label htmlFor={`${id}-search`}>Search by name</Label>
        <div className="relative">
          <SearchIcon
            className="absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            id={`${id}-search`}
            type="search"
            value={search}
            placeholder="Search audiences"
            className="pl-9"
            onChange={(e) => setSearch(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') onChange({ ...filters, search })
            }}
          />
        </div>
      </div>
      <div className="flex flex-col gap-1.5 sm:w-56">
        <Label htmlFor={`${id}-category`}>Category</Label>
        <select
          id={`${id}-category`}
          value={filters.category.toLowerCase()}
          onChange={(e) => onChange({ ...filters, search, category: e.target.value })}
          className="h-10 rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          <option value="">All categories</option>
          {categoryOptions.map((category) => (
            <option key={category.value} value={category.value}>
              {category.label}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1.5 sm:w-56">
        <Label htmlFor={`${id}-sort`}>Sort by</Label>
        <select
          id={`${id}-sort`}
          value={filters.sort ?? 'newest'}
          onChange={(e) => onChange({ ...filters, search, sort: e.target.value as AudienceSort })}
          className="h-10 rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          <option value="newest">Newest</option>
          <option value="confirmation">Confirmation rate</option>
          <option value="counted">Clicks that counted</option>
        </select>
      </div>
    </form>
  )
}
