/** Sources and campaigns waiting for review: approve, reject or ban, each with a reason. */
import { Link } from 'react-router-dom'
import { Skeleton } from '@/components/ui/skeleton'
import { useReviewSourcesQuery } from '../api/review-sources-query'
import { useReviewCampaignsQuery } from '../api/review-campaigns-query'
import { formatCredits } from '@/lib/format'
import { categoryLabel, platformLabel } from '@/lib/vocabulary-catalog'
import { QueryError } from '@/components/query-error'
import { ReviewItem, type Decision } from './review-item'

const sourceDecisions: Decision[] = [
  { status: 'approved', label: 'Approve', reasonRequired: false },
  { status: 'rejected', label: 'Reject', reasonRequired: true },
  { status: 'banned', label: 'Ban', reasonRequired: true, destructive: true },
]
const campaignDecisions: Decision[] = [
  { status: 'active', label: 'Approve', reasonRequired: false },
  { status: 'rejected', label: 'Reject', reasonRequired: true },
]

const Loading = ({ label }: { label: string }) => (
  <div role="status" aria-label={label} className="space-y-2">
    <Skeleton className="h-20" />
    <Skeleton className="h-20" />
  </div>
)

export function ReviewQueue({ previewHref }: { previewHref: (campaignId: string) => string }) {
  const sources = useReviewSourcesQuery()
  const campaigns = useReviewCampaignsQuery()
  return (
    <div className="grid gap-8 lg:grid-cols-2">
      <section aria-labelledby="review-campaigns" className="space-y-3">
        <h2 id="review-campaigns" className="text-xl font-semibold">
          Newsletters {campaigns.data && <span className="text-muted-foreground">({campaigns.data.length})</span>}
        </h2>
        {campaigns.isPending ? (
          <Loading label="Loading newsletters to review" />
        ) : campaigns.isError ? (
          <QueryError
            title="Could not load newsletters to review"
            error={campaigns.error}
            onRetry={() => void campaigns.refetch()}
          />
        ) : campaigns.data.length === 0 ? (
          <p className="text-muted-foreground">No newsletters waiting for review.</p>
        ) : (
          <ul className="space-y-3">
            {campaigns.data.map((c) => (
              <ReviewItem
                key={c.id}
                subject="campaign"
                id={c.id}
                name={c.name}
                status={c.status}
                decisions={campaignDecisions}
              >
                <p>
                  By {c.advertiser?.full_name || 'an advertiser without a name'} · {categoryLabel(c.category)}
                </p>
                <p>
                  {formatCredits(c.price_per_subscriber)} per subscriber · budget {formatCredits(c.budget_total)}
                </p>
                {c.website_url && <p className="break-all">{c.website_url}</p>}
                {c.description && <p className="line-clamp-3">{c.description}</p>}
                <Link to={previewHref(c.id)} className="font-medium text-foreground underline">
                  Preview {c.name}
                </Link>
              </ReviewItem>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="review-sources" className="space-y-3">
        <h2 id="review-sources" className="text-xl font-semibold">
          Audience sources {sources.data && <span className="text-muted-foreground">({sources.data.length})</span>}
        </h2>
        {sources.isPending ? (
          <Loading label="Loading sources to review" />
        ) : sources.isError ? (
          <QueryError
            title="Could not load sources to review"
            error={sources.error}
            onRetry={() => void sources.refetch()}
          />
        ) : sources.data.length === 0 ? (
          <p className="text-muted-foreground">No sources waiting for review.</p>
        ) : (
          <ul className="space-y-3">
            {sources.data.map((s) => (
              <ReviewItem
                key={s.id}
                subject="source"
                id={s.id}
                name={s.name}
                status={s.status}
                decisions={sourceDecisions}
              >
                <p>
                  By {s.publisher?.full_name || 'a publisher without a name'} · {platformLabel(s.platform)} ·{' '}
                  {categoryLabel(s.category)}
                </p>
                {s.url && <p className="break-all">{s.url}</p>}
                {s.description && <p className="line-clamp-3">{s.description}</p>}
              </ReviewItem>
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}
