/**
 * One of the publisher's sources: status with the admin's note, its magic link with a copy button, counted
 * clicks and not-counted clicks by reason, and (when live) a campaign link per active newsletter.
 */
import type { ReactNode } from 'react'
import { Badge } from '@/components/ui/badge'
import type { PublisherSource } from '../api/publisher-sources-query'
import type { ClickBreakdown } from '../lib/click-breakdown'
import { isSourceLive, magicLinkUrl } from '../lib/source-status'
import { isSourceAwaitingReview, PENDING_SOURCE_LINK_TEXT } from '@/lib/source-review'
import { CopyButton } from '@/components/copy-button'
import { categoryLabel, platformLabel, sourceStatus } from '@/lib/vocabulary-catalog'
import { metrics } from '@/lib/metrics'

export function SourceItem({
  source,
  clicks,
  actions,
  children,
}: {
  source: PublisherSource
  clicks: ClickBreakdown | undefined
  actions?: ReactNode
  children?: ReactNode
}) {
  const link = magicLinkUrl(window.location.origin, source.unified_code)
  const live = isSourceLive(source.status)
  const reasons = Object.entries(clicks?.byReason ?? {}).sort((a, b) => b[1] - a[1])
  return (
    <li className="flex flex-col gap-3 rounded-lg border bg-card p-4" data-testid="publisher-source">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 className="font-semibold">{source.name}</h3>
          <p className="text-sm text-muted-foreground">
            {platformLabel(source.platform)} · {categoryLabel(source.category)}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <Badge variant={sourceStatus(source.status).tone}>{sourceStatus(source.status).label}</Badge>
          {actions}
        </div>
      </div>
      {source.review_note && (
        <p className="rounded-md bg-muted p-2 text-sm" data-testid="review-note">
          <span className="font-medium">Note from the review team:</span> {source.review_note}
        </p>
      )}
      <div className="flex flex-col gap-1">
        <span className="text-sm font-medium" id={`link-${source.id}`}>
          Magic link
        </span>
        {live ? (
          <div className="flex items-center gap-2">
            <code
              className="min-w-0 flex-1 truncate rounded bg-muted px-2 py-1.5 text-sm"
              aria-labelledby={`link-${source.id}`}
              data-testid="magic-link"
            >
              {link}
            </code>
            <CopyButton value={link} label={`Copy the magic link of ${source.name}`} />
          </div>
        ) : (
          <p className="rounded bg-muted px-2 py-1.5 text-sm text-muted-foreground" data-testid="magic-link-pending">
            {isSourceAwaitingReview(source.status)
              ? `Pending review. ${PENDING_SOURCE_LINK_TEXT}.`
              : 'This link does not work: the source is not approved.'}
          </p>
        )}
      </div>
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-3" data-testid="source-clicks">
        <div>
          <dt className="text-muted-foreground">{metrics.eachSourceCountedClicks.label}</dt>
          <dd className="text-lg font-semibold">{clicks?.counted ?? 0}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Not counted</dt>
          <dd className="text-lg font-semibold">{clicks?.notCounted ?? 0}</dd>
        </div>
        {reasons.length > 0 && (
          <div className="col-span-2 sm:col-span-1">
            <dt className="text-muted-foreground">Why not counted</dt>
            <dd>
              <ul>
                {reasons.map(([reason, count]) => (
                  <li key={reason}>
                    {reason}: {count}
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        )}
      </dl>
      {children}
    </li>
  )
}
