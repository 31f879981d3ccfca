/** Search and category filter for the newsletter list; both are kept in the URL and tracked (SPEC §7). */
import { useId } from 'react'
import { SearchIcon } from 'lucide-react'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { useDebouncedSearch } from '@/lib/use-debounced-search'
import { categoryOptions } from '@/lib/vocabulary-catalog'
import type { NewsletterFilters as Filters } from '../keys'
import { trackCategoryFilter, trackSearch } from '../lib/tracking'

export function NewsletterFilters({ filters, onChange }: { filters: Filters; onChange: (next: Filters) => void }) {
  const id = useId()
  const [search, setSearch] = useDebouncedSearch(filters.search, (value) => {
    trackSearch(value)
    onChange({ ...filters, search: value })
  })

  return (
    <form role="search" className="flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={(e) => e.preventDefault()}>
      <div className="flex flex-1 flex-col gap-1.5">
        <Label htmlFor={`${id}-search`}>Search newsletters</Label>
        <div className="relative">
          <SearchIcon
            className="absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            id={`${id}-search`}
            type="search"
            value={search}
            placeholder="Search by name"
            className="pl-9"
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
      </div>
      <div className="flex flex-col gap-1.5 sm:w-56">
        <Label htmlFor={`${id}-category`}>Category</Label>
        <select
          id={`${id}-category`}
          value={filters.category.toLowerCase()}
          onChange={(e) => {
            trackCategoryFilter(e.target.value || 'all')
            onChange({ ...filters, search, category: e.target.value })
          }}
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
    </form>
  )
}
