/** Act on anything: ban an approved source or newsletter, or reinstate a banned one, with a reason. */
import { useState } from 'react'
import { Link } from 'react-router-dom'
import { paths } from '@/config/paths'
import { Input } from '@/components/ui/input'
import { Skeleton } from '@/components/ui/skeleton'
import { Pager } from '@/components/pager'
import { QueryError } from '@/components/query-error'
import { formatDateTime } from '@/lib/format'
import { CATALOG_PAGE_SIZE, useCatalogQuery, type CatalogKind } from '../api/catalog-query'
import { ReviewItem, type Decision } from './review-item'

const ban: Decision = { status: 'banned', label: 'Ban', reasonRequired: true, destructive: true }

export function CatalogPanel({ kind }: { kind: CatalogKind }) {
  const [search, setSearch] = useState('')
  const [page, setPage] = useState(0)
  const catalog = useCatalogQuery({ kind, search, page })
  const reinstate: Decision = {
    status: kind === 'sources' ? 'approved' : 'active',
    label: 'Reinstate',
    reasonRequired: false,
  }
  const noun = kind === 'sources' ? 'sources' : 'newsletters'
  return (
    <div className="space-y-3">
      <Input
        type="search"
        aria-label={`Search ${noun} by name`}
        placeholder={`Search ${noun} by name`}
        value={search}
        onChange={(e) => {
          setSearch(e.target.value)
          setPage(0)
        }}
        className="max-w-sm"
      />
      {catalog.isPending ? (
        <div role="status" aria-label={`Loading ${noun}`}>
          <Skeleton className="h-24" />
        </div>
      ) : catalog.isError ? (
        <QueryError title={`Could not load ${noun}`} error={catalog.error} onRetry={() => void catalog.refetch()} />
      ) : catalog.data.items.length === 0 ? (
        <p className="text-muted-foreground">
          No live or banned {noun}
          {search ? ' match this search' : ''}.
        </p>
      ) : (
        <>
          <ul className="space-y-3" aria-label={`Live and banned ${noun}`}>
            {catalog.data.items.map((item) => (
              <ReviewItem
                key={item.id}
                subject={kind === 'sources' ? 'source' : 'campaign'}
                id={item.id}
                name={item.name}
                status={item.status}
                decisions={item.status === 'banned' ? [reinstate] : [ban]}
              >
                {item.owner_id ? (
                  <Link className="underline" to={paths.admin.user(item.owner_id)}>
                    {item.owner ?? 'Owner without a name'}
                  </Link>
                ) : (
                  (item.owner ?? 'Owner without a name')
                )}{' '}
                · since {formatDateTime(item.created_at)} ·{' '}
                <Link
                  className="underline"
                  to={
                    kind === 'sources' ? paths.admin.sourceAnalytics(item.id) : paths.admin.campaignAnalytics(item.id)
                  }
                  aria-label={`Analytics of ${item.name}`}
                >
                  Analytics
                </Link>
              </ReviewItem>
            ))}
          </ul>
          <Pager
            page={page}
            pageSize={CATALOG_PAGE_SIZE}
            total={catalog.data.total}
            onPageChange={setPage}
            label={`Pages of ${noun}`}
          />
        </>
      )}
    </div>
  )
}
