/**
 * A newsletter's partner program (PRODUCT "Partner programs"): applications first, then partners and every source
 * that promoted it, each with its quality as the database rates it (30-day counted clicks and confirmation rate,
 * disputes, paid subscribers to this newsletter), its price and what its influencer earns, and the decisions —
 * approve (optionally at the source's own price), decline an application, block. Figures come from
 * `campaign_partner_sources` (with the engaged rate where email tools report it); this only formats them. The price is checked here and again by decide_partner.
 */
import { useState } from 'react'
import { priceProblem, PRICE_RANGE_HINT } from '@rules/price'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { PageSpinner } from '@/components/page-spinner'
import { QueryError } from '@/components/query-error'
import { formatCount, formatCredits, formatDateTime } from '@/lib/format'
import { metrics } from '@/lib/metrics'
import { partnerStatus } from '@/lib/vocabulary'
import { platformLabel } from '@/lib/vocabulary-catalog'
import { usePartnerSourcesQuery, type PartnerSource } from '../api/partner-sources-query'
import { useDecidePartnerMutation, type PartnerDecision } from '../api/decide-partner-mutation'

function standing(source: PartnerSource, byApproval: boolean) {
  if (source.status) return partnerStatus(source.status)
  return byApproval
    ? { label: 'Not a partner', tone: 'grey' as const }
    : { label: 'Promoting (open)', tone: 'green' as const }
}

function PartnerCard({
  campaignId,
  source,
  byApproval,
  newsletterPrice,
}: {
  campaignId: string
  source: PartnerSource
  byApproval: boolean
  newsletterPrice: number
}) {
  const [price, setPrice] = useState(source.priceOverride == null ? '' : source.priceOverride.toFixed(2))
  const [problem, setProblem] = useState<string | null>(null)
  const decide = useDecidePartnerMutation({ onError: (e) => setProblem(e.message) })
  const word = standing(source, byApproval)
  const fieldId = `partner-price-${source.sourceId}`

  const send = (status: PartnerDecision) => {
    let priceOverride: number | null = null
    if (status === 'approved' && price.trim() !== '') {
      priceOverride = Number(price)
      const issue = priceProblem(priceOverride)
      if (issue) {
        setProblem(issue)
        return
      }
    }
    setProblem(null)
    decide.mutate({ campaignId, sourceId: source.sourceId, sourceName: source.sourceName, status, priceOverride })
  }

  return (
    <li className="flex min-w-0 flex-col gap-3 rounded-lg border bg-card p-4" data-testid="partner">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold break-words">{source.sourceName}</h3>
          <p className="text-sm text-muted-foreground">
            {platformLabel(source.platform)}
            {source.appliedAt && ` · applied ${formatDateTime(source.appliedAt)}`}
          </p>
        </div>
        <Badge variant={word.tone} data-testid="partner-status">
          {word.label}
        </Badge>
      </div>
      {source.message && (
        <blockquote className="border-l-2 pl-3 text-sm break-words text-muted-foreground">
          “{source.message}”
        </blockquote>
      )}
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-5" aria-label={`Quality of ${source.sourceName}`}>
        <div>
          <dt className="text-muted-foreground">{metrics.partnerCountedClicks.label}</dt>
          <dd className="font-semibold" data-testid="partner-clicks">
            {source.countedClicks == null ? 'None yet' : formatCount(source.countedClicks)}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">{metrics.partnerConfirmationRate.label}</dt>
          <dd className="font-semibold" data-testid="partner-confirmation-rate">
            {source.confirmationRate == null ? 'Too few to tell' : `${source.confirmationRate.toFixed(1)}%`}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">{metrics.partnerEngagedRate.label}</dt>
          <dd className="font-semibold" data-testid="partner-engaged-rate">
            {source.engagedRate == null ? 'Too few to tell' : `${source.engagedRate.toFixed(1)}%`}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Disputes</dt>
          <dd className="font-semibold" data-testid="partner-disputes">
            {formatCount(source.disputes)}
            {source.disputes > 0 && ` (${formatCount(source.disputesUpheld)} upheld)`}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">{metrics.partnerPaidSubscribers.label}</dt>
          <dd className="font-semibold">{formatCount(source.paidSubscribers)}</dd>
        </div>
      </dl>
      <p className="text-sm" data-testid="partner-price">
        {source.mayPromote ? (
          <>
            You pay {formatCredits(source.price)} per subscriber
            {source.priceOverride != null ? ' (its own price)' : ''}; the influencer earns{' '}
            {formatCredits(source.earning)}.
          </>
        ) : (
          <span className="text-muted-foreground">
            Its readers are not paid: “{source.status === 'blocked' ? 'blocked' : 'not a partner'}”.
          </span>
        )}
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <FormField
          id={fieldId}
          label="Its own price (credits, optional)"
          hint={`${PRICE_RANGE_HINT}. Empty: your newsletter's ${formatCredits(newsletterPrice)}. New subscribers only.`}
          error={problem ?? undefined}
          className="sm:max-w-xs"
        >
          <Input
            type="number"
            inputMode="decimal"
            step="0.01"
            value={price}
            onChange={(e) => setPrice(e.target.value)}
            placeholder={newsletterPrice.toFixed(2)}
          />
        </FormField>
        <div className="flex flex-wrap gap-2">
          <Button type="button" size="sm" disabled={decide.isPending} onClick={() => send('approved')}>
            {source.status === 'approved' ? 'Save price' : 'Approve'}
          </Button>
          {source.status === 'applied' && (
            <Button
              type="button"
              size="sm"
              variant="outline"
              disabled={decide.isPending}
              onClick={() => send('declined')}
            >
              Decline
            </Button>
          )}
          {source.status !== 'blocked' && (
            <Button
              type="button"
              size="sm"
              variant="destructive"
              disabled={decide.isPending}
              onClick={() => send('blocked')}
            >
              Block
            </Button>
          )}
        </div>
      </div>
    </li>
  )
}

export function PartnerList({
  campaignId,
  partnerMode,
  newsletterPrice,
}: {
  campaignId: string
  partnerMode: string
  newsletterPrice: number
}) {
  const sources = usePartnerSourcesQuery(campaignId)
  if (sources.isPending) return <PageSpinner />
  if (sources.isError)
    return (
      <QueryError
        title="We couldn't load the partners. Try again."
        error={sources.error}
        onRetry={() => void sources.refetch()}
      />
    )
  if (sources.data.length === 0)
    return (
      <p className="text-sm text-muted-foreground" data-testid="partners-empty">
        {partnerMode === 'approval'
          ? 'No applications yet. Influencers see your newsletter in their offers and apply from there.'
          : 'No source has promoted it yet. Sources that send you readers appear here, so you can block one or give it its own price.'}
      </p>
    )
  return (
    <ul className="grid gap-4 xl:grid-cols-2">
      {sources.data.map((source) => (
        <PartnerCard
          key={source.sourceId}
          campaignId={campaignId}
          source={source}
          byApproval={partnerMode === 'approval'}
          newsletterPrice={newsletterPrice}
        />
      ))}
    </ul>
  )
}
