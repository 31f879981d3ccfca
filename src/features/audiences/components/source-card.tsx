/** One directory card (SPEC §2): badge, category, platform, image or initial, fixed texts, 'Visit Page'. */
import { ExternalLinkIcon } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import type { AudienceSourceCard } from '../api/audience-sources-query'
import { EntityImage } from '@/components/entity-image'
import { categoryLabel, platformLabel, publicSourceStatus } from '@/lib/vocabulary-catalog'
import { visitHref } from '../lib/source-display'

export function SourceCard({ source }: { source: AudienceSourceCard }) {
  const href = visitHref(source.url, source.description)
  return (
    <article
      aria-labelledby={`source-${source.id}`}
      className="flex flex-col gap-3 rounded-lg border bg-card p-4 shadow-sm"
      data-testid="audience-card"
    >
      <div className="flex items-start gap-3">
        <EntityImage src={source.image_url} name={source.name} size={56} />
        <div className="min-w-0 flex-1">
          <h2 id={`source-${source.id}`} className="truncate text-base font-semibold">
            {source.name}
          </h2>
          <p className="text-sm text-muted-foreground">Active publisher audience</p>
        </div>
        <Badge variant={publicSourceStatus(source.status).tone} data-testid="status-badge" className="shrink-0">
          {publicSourceStatus(source.status).label}
        </Badge>
      </div>
      <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <div className="flex gap-1">
          <dt className="text-muted-foreground">Category:</dt>
          <dd>{categoryLabel(source.category)}</dd>
        </div>
        <div className="flex gap-1">
          <dt className="text-muted-foreground">Platform:</dt>
          <dd>{platformLabel(source.platform)}</dd>
        </div>
      </dl>
      <SourceQuality source={source} />
      <div className="mt-auto flex items-center justify-between gap-2">
        <span className="text-xs font-medium text-green-700">Active Publisher</span>
        {href ? (
          <Button asChild size="sm" variant="outline">
            <a href={href} target="_blank" rel="noopener noreferrer nofollow">
              Visit Page <ExternalLinkIcon aria-hidden="true" />
              <span className="sr-only"> of {source.name} (opens in a new tab)</span>
            </a>
          </Button>
        ) : (
          <Button size="sm" variant="outline" disabled>
            Visit Page
          </Button>
        )}
      </div>
    </article>
  )
}

/** The 30-day quality figures, once the database has rated the source (20 counted clicks). */
function SourceQuality({ source }: { source: AudienceSourceCard }) {
  const share = source.quality_counted_share
  if (share === null || share === undefined) return null
  const rate = source.quality_confirmation_rate
  return (
    <dl
      className="grid grid-cols-2 gap-2 rounded-md bg-muted/60 p-2 text-sm"
      data-testid="source-quality"
      aria-label="Last 30 days"
    >
      <div>
        <dt className="text-xs text-muted-foreground">Confirmation rate</dt>
        <dd className="font-semibold">{rate === null || rate === undefined ? '—' : `${Number(rate).toFixed(1)}%`}</dd>
      </div>
      <div>
        <dt className="text-xs text-muted-foreground">Clicks that counted</dt>
        <dd className="font-semibold">{Number(share).toFixed(1)}%</dd>
      </div>
    </dl>
  )
}

export function SourceCardSkeleton() {
  return (
    <div className="flex h-[182px] flex-col gap-3 rounded-lg border p-4" data-testid="audience-card-skeleton">
      <div className="flex gap-3">
        <div className="size-14 animate-pulse rounded-md bg-muted" />
        <div className="flex flex-1 flex-col gap-2">
          <div className="h-4 w-2/3 animate-pulse rounded bg-muted" />
          <div className="h-3 w-1/2 animate-pulse rounded bg-muted" />
        </div>
      </div>
      <div className="h-3 w-3/4 animate-pulse rounded bg-muted" />
      <div className="mt-auto h-9 w-24 animate-pulse self-end rounded bg-muted" />
    </div>
  )
}
