/** `/audiences`: 'Discover Trusted Audiences' (SPEC §2) with search, category filter and load more. */
import { useCallback } from 'react'
import { useSearchParams } from 'react-router-dom'
import { Button } from '@/components/ui/button'
import { HydrateWhenVisible } from '@/lib/deferred-hydration'
import { formatCount } from '@/lib/format'
import { useAudienceSourcesCountQuery } from '../api/audience-sources-count-query'
import { useAudienceSourcesQuery } from '../api/audience-sources-query'
import type { AudienceFilters } from '../keys'
import { DirectoryFilters } from './directory-filters'
import { SourceCard, SourceCardSkeleton } from './source-card'

export function AudienceDirectory() {
  const [params, setParams] = useSearchParams()
  const sortParam = params.get('sort')
  const filters: AudienceFilters = {
    search: params.get('q') ?? '',
    category: params.get('category') ?? '',
    sort: sortParam === 'confirmation' || sortParam === 'counted' ? sortParam : 'newest',
  }
  const sources = useAudienceSourcesQuery(filters)
  const count = useAudienceSourcesCountQuery(filters)

  const setFilters = useCallback(
    (next: AudienceFilters) => {
      const query = new URLSearchParams()
      if (next.search.trim()) query.set('q', next.search.trim())
      if (next.category) query.set('category', next.category)
      if (next.sort && next.sort !== 'newest') query.set('sort', next.sort)
      setParams(query, { replace: true })
    },
    [setParams],
  )

  const cards = sources.data?.pages.flat() ?? []
  const filtered = Boolean(filters.search || filters.category)

  return (
    <section className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-10">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold tracking-tight">Discover Trusted Audiences</h1>
        <p className="text-muted-foreground">
          Browse verified publishers and the audiences they bring to the newsletters they recommend.
        </p>
        <p className="text-sm font-medium" aria-live="polite" data-testid="audience-count">
          {count.data === undefined
            ? '\u00a0'
            : `${formatCount(count.data)} ${count.data === 1 ? 'audience source' : 'audience sources'}`}
        </p>
      </header>

      <DirectoryFilters filters={filters} onChange={setFilters} />

      {sources.isPending ? (
        <div role="status" aria-live="polite" className="flex flex-col gap-4">
          <p className="text-sm text-muted-foreground">Loading magical audience sources…</p>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {Array.from({ length: 6 }, (_, i) => (
              <SourceCardSkeleton key={i} />
            ))}
          </div>
        </div>
      ) : sources.isError ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-red-800">
          <p className="font-semibold">Failed to load sources</p>
          <p className="text-sm">{sources.error.message || 'Could not load audience sources.'}</p>
          <Button className="mt-3" size="sm" variant="outline" onClick={() => void sources.refetch()}>
            Try again
          </Button>
        </div>
      ) : cards.length === 0 ? (
        <div className="rounded-lg border p-8 text-center text-muted-foreground">
          <p>No verified audience sources available right now.</p>
          {filtered && <p className="mt-1 text-sm">Try another name or category.</p>}
        </div>
      ) : (
        // The cards hydrate as they come into view (lib/deferred-hydration.tsx), after the filters.
        <HydrateWhenVisible id="audience-cards">
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Audience sources">
            {cards.map((source) => (
              <li key={source.id} className="flex min-w-0">
                {/* min-w-0: a long name truncates inside its card instead of widening the page on a phone. */}
                <div className="min-w-0 flex-1">
                  <SourceCard source={source} />
                </div>
              </li>
            ))}
          </ul>
          {sources.hasNextPage && (
            <div className="flex justify-center">
              <Button
                variant="outline"
                onClick={() => void sources.fetchNextPage()}
                disabled={sources.isFetchingNextPage}
              >
                {sources.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </Button>
            </div>
          )}
        </HydrateWhenVisible>
      )}
    </section>
  )
}
