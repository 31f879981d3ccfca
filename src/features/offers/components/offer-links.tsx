/**
 * An offer's link per source of the publisher: a live source gets its campaign link with a Copy button; a source
 * still waiting for review says its link starts working once approved, and has nothing to copy.
 */
import { paths } from '@/config/paths'
import { CopyButton } from '@/components/copy-button'
import { isPublicSourceStatus } from '@/lib/vocabulary-catalog'
import { isSourceAwaitingReview, PENDING_SOURCE_LINK_TEXT } from '@/lib/source-review'
import { pairKey, type Partnership } from '../api/publisher-partnerships-query'
import { PartnerState } from './partner-apply'

export type OfferSource = { id: string; name: string; status: string; unifiedCode: string }

export function OfferLinks({
  campaignId,
  campaignName,
  sources,
  partnerships,
}: {
  campaignId: string
  campaignName: string
  sources: OfferSource[]
  /** Each source's standing with this newsletter's partner program, by pairKey; none for an open newsletter. */
  partnerships?: Map<string, Partnership>
}) {
  const usable = sources.filter((s) => isPublicSourceStatus(s.status) || isSourceAwaitingReview(s.status))
  if (usable.length === 0) return null
  return (
    <ul className="flex flex-col gap-2" aria-label={`Your links for ${campaignName}`}>
      {usable.map((source) => {
        const link = `${window.location.origin}${paths.campaignLink(source.unifiedCode, campaignId)}`
        const live = isPublicSourceStatus(source.status)
        return (
          <li key={source.id} className="flex flex-col gap-1 text-sm" data-testid="offer-link">
            <span className="font-medium">{source.name}</span>
            {live ? (
              <div className="flex items-center gap-2">
                <code className="min-w-0 flex-1 truncate rounded bg-muted px-2 py-1.5">{link}</code>
                <CopyButton value={link} label={`Copy the ${campaignName} link of ${source.name}`} />
              </div>
            ) : (
              <p className="rounded bg-muted px-2 py-1.5 text-muted-foreground">
                Waiting for review. {PENDING_SOURCE_LINK_TEXT}.
              </p>
            )}
            {live && (
              <PartnerState
                campaignId={campaignId}
                campaignName={campaignName}
                sourceId={source.id}
                sourceName={source.name}
                partnership={partnerships?.get(pairKey(campaignId, source.id))}
              />
            )}
          </li>
        )
      })}
    </ul>
  )
}
