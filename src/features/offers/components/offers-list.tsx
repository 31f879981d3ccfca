/**
 * The publisher's offers: every active newsletter with what it pays them per paid subscriber (price minus the
 * platform fee, computed by the database), its category, whether it can still pay, its confirmation rate, and a
 * link per source. Figures come from `publisher_offers`; this only formats them.
 */
import { Link } from 'react-router-dom'
import { paths } from '@/config/paths'
import { Badge } from '@/components/ui/badge'
import { QueryError } from '@/components/query-error'
import { PageSpinner } from '@/components/page-spinner'
import { formatCount, formatCredits } from '@/lib/format'
import { categoryLabel } from '@/lib/vocabulary-catalog'
import { partnerMode, payRuleLabel } from '@/lib/vocabulary'
import { PLATFORM_FEE_RATE } from '@rules/commission'
import { usePublisherOffersQuery, type Offer } from '../api/publisher-offers-query'
import { pairKey, usePartnershipsQuery, type Partnership } from '../api/publisher-partnerships-query'
import { OfferLinks, type OfferSource } from './offer-links'
import { SourceEngagedRates } from './source-engaged-rates'

const feePercent = `${Math.round(PLATFORM_FEE_RATE * 100)}%`

function funding(offer: Offer): { label: string; tone: 'green' | 'yellow' | 'red' } {
  if (offer.fundingStatus === 'funded')
    return {
      label: `Paying · room for ${formatCount(offer.subscribersLeft)} more ${offer.subscribersLeft === 1 ? 'subscriber' : 'subscribers'}`,
      tone: 'green',
    }
  if (offer.fundingStatus === 'budget_exhausted')
    return { label: 'Budget used up: new subscribers are not paid until the advertiser raises it', tone: 'red' }
  return { label: "On hold: the advertiser's balance cannot pay another subscriber", tone: 'yellow' }
}

function OfferCard({
  offer,
  sources,
  partnerships,
}: {
  offer: Offer
  sources: OfferSource[]
  partnerships: Map<string, Partnership> | undefined
}) {
  const state = funding(offer)
  // Any row of this newsletter says its mode (the database lists every newsletter by approval for every source).
  const byApproval = sources.some((s) => partnerships?.get(pairKey(offer.campaignId, s.id))?.partnerMode === 'approval')
  return (
    <li className="flex min-w-0 flex-col gap-3 rounded-lg border bg-card p-4" data-testid="offer">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold">{offer.name}</h3>
          <p className="text-sm text-muted-foreground">{categoryLabel(offer.category)}</p>
        </div>
        <div className="flex flex-wrap gap-1">
          {byApproval && (
            <Badge variant={partnerMode('approval').tone} data-testid="offer-partner-mode">
              {partnerMode('approval').label}
            </Badge>
          )}
          <Badge variant={state.tone}>{offer.fundingStatus === 'funded' ? 'Paying' : 'Not paying now'}</Badge>
        </div>
      </div>
      {offer.description && <p className="line-clamp-2 text-sm text-muted-foreground">{offer.description}</p>}
      <p className="text-sm" data-testid="offer-pay-rule">
        <span className="font-medium">{payRuleLabel(offer.payRule, offer.engagementWindowDays)}</span>
        <span className="block text-xs text-muted-foreground">
          {offer.payRule === 'engaged'
            ? `You are paid for a reader who opens or clicks one of its emails within ${offer.engagementWindowDays} days of confirming (machine opens and link scanners do not count); the others are not paid.`
            : 'You are paid for every reader who confirms by email, after a 7-day hold.'}
        </span>
      </p>
      <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-muted-foreground">You earn per paid subscriber</dt>
          <dd className="text-lg font-semibold" data-testid="offer-earning">
            {formatCredits(offer.earning)}
          </dd>
          <dd className="text-xs text-muted-foreground">
            Price {formatCredits(offer.price)} minus the {feePercent} platform fee
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Budget</dt>
          <dd data-testid="offer-funding">{state.label}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Confirmation rate (30 days)</dt>
          <dd data-testid="offer-confirmation-rate">
            {offer.confirmationRate == null
              ? 'Too few sign-ups yet to tell'
              : `${offer.confirmationRate.toFixed(1)}% confirm by email`}
          </dd>
        </div>
      </dl>
      <OfferLinks
        campaignId={offer.campaignId}
        campaignName={offer.name}
        sources={sources}
        partnerships={partnerships}
      />
    </li>
  )
}

export function OffersList({ userId, sources }: { userId: string; sources: OfferSource[] }) {
  const offers = usePublisherOffersQuery(userId)
  const partnerships = usePartnershipsQuery(userId)
  if (offers.isPending) return <PageSpinner />
  if (offers.isError)
    return (
      <QueryError
        title="We couldn't load the offers. Try again."
        error={offers.error}
        onRetry={() => void offers.refetch()}
      />
    )
  return (
    <div className="flex flex-col gap-4">
      {sources.length === 0 && (
        <p className="rounded-lg border border-dashed p-4 text-sm" data-testid="offers-no-source">
          Your links appear here once you have a source.{' '}
          <Link className="font-medium underline" to={paths.publisher.sources}>
            Add a source
          </Link>
        </p>
      )}
      {sources.length > 0 && <SourceEngagedRates sources={sources} />}
      {offers.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No newsletters are looking for subscribers right now. New ones appear here as soon as an admin approves them.
        </p>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {offers.data.map((offer) => (
            <OfferCard key={offer.campaignId} offer={offer} sources={sources} partnerships={partnerships.data} />
          ))}
        </ul>
      )}
    </div>
  )
}
