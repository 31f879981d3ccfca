/**
 * A newsletter in the list: image, name, advertiser, category, description, its landing facts (how often it goes out,
 * readers, engaged rate once it rests on enough readers), and a checkbox to pick it.
 */
import { Link } from 'react-router-dom'
import { CheckIcon, MailIcon } from 'lucide-react'
import { EntityImage } from '@/components/entity-image'
import { paths } from '@/config/paths'
import { Badge } from '@/components/ui/badge'
import { categoryLabel, frequencyLabel } from '@/lib/vocabulary-catalog'
import { formatCount } from '@/lib/format'
import { publicMetrics } from '@/lib/public-metrics'
import { cn } from '@/lib/utils'
import type { EngagedRate } from '@/components/engaged-rate'
import type { CampaignCard } from '../api/campaign-types'

/** The landing facts' words, the same on the card and the newsletter's page. */
export const FACT_LABELS = { frequency: 'Goes out', readers: 'Readers' } as const

/** The card's facts in one wrapping line; nothing when none is known. */
function CardFacts({ campaign, engagedRate }: { campaign: CampaignCard; engagedRate?: EngagedRate }) {
  const facts = [
    campaign.frequency ? ([FACT_LABELS.frequency, frequencyLabel(campaign.frequency)] as const) : null,
    campaign.audience_size != null ? ([FACT_LABELS.readers, formatCount(campaign.audience_size)] as const) : null,
    engagedRate?.rate != null
      ? ([publicMetrics.newsletterEngagedRate.label, `${engagedRate.rate.toFixed(1)}%`] as const)
      : null,
  ].filter((f) => f !== null)
  if (facts.length === 0) return null
  return (
    <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs" data-testid="newsletter-card-facts">
      {facts.map(([label, value]) => (
        <div key={label} className="flex gap-1">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="font-medium tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  )
}

export function NewsletterImage({ campaign, size }: { campaign: CampaignCard; size: number }) {
  return <EntityImage src={campaign.image_url} name={campaign.name} size={size} />
}

export function NewsletterCard({
  campaign,
  selected,
  alreadySubscribed,
  confirmed = false,
  engagedRate,
  onToggle,
}: {
  campaign: CampaignCard
  selected: boolean
  alreadySubscribed: boolean
  confirmed?: boolean
  /** The newsletter's engaged rate (newsletter_engaged_rates); shown once it rests on enough readers. */
  engagedRate?: EngagedRate
  onToggle: () => void
}) {
  const checkboxId = `pick-${campaign.id}`
  return (
    <article
      aria-labelledby={`newsletter-${campaign.id}`}
      data-testid="newsletter-card"
      className={cn(
        'flex h-full flex-col gap-3 rounded-lg border bg-card p-4 shadow-sm transition-colors',
        selected && 'border-primary ring-2 ring-primary/30',
      )}
    >
      <div className="flex items-start gap-3">
        <NewsletterImage campaign={campaign} size={64} />
        <div className="min-w-0 flex-1">
          <h2 id={`newsletter-${campaign.id}`} className="text-base font-semibold">
            <Link to={paths.newsletter(campaign.id)} className="hover:underline focus-visible:underline">
              {campaign.name}
            </Link>
          </h2>
          <p className="text-sm text-muted-foreground">
            by {campaign.advertiser?.full_name || 'an independent writer'}
          </p>
          {campaign.category && (
            <Badge variant="secondary" className="mt-1">
              {categoryLabel(campaign.category)}
            </Badge>
          )}
        </div>
      </div>
      {campaign.description && <p className="line-clamp-3 text-sm text-muted-foreground">{campaign.description}</p>}
      <CardFacts campaign={campaign} engagedRate={engagedRate} />
      <div className="mt-auto flex items-center justify-between gap-2 pt-1">
        <label htmlFor={checkboxId} className="flex cursor-pointer items-center gap-2 text-sm font-medium">
          <input
            id={checkboxId}
            type="checkbox"
            checked={selected}
            onChange={onToggle}
            className="size-4 accent-[var(--color-primary)]"
          />
          Select {campaign.name}
        </label>
        {confirmed ? (
          <span className="flex items-center gap-1 text-xs text-green-800" data-testid="confirmed-subscription">
            <CheckIcon className="size-3" aria-hidden="true" /> Subscribed
          </span>
        ) : (
          alreadySubscribed && (
            // This browser asked to subscribe; only the emailed link confirms it, so no "Subscribed" tick yet.
            <span className="flex items-center gap-1 text-xs text-amber-800" data-testid="check-your-email">
              <MailIcon className="size-3" aria-hidden="true" /> Check your email
            </span>
          )
        )}
      </div>
    </article>
  )
}

export function NewsletterCardSkeleton() {
  return (
    <div
      className="flex h-[196px] flex-col gap-3 rounded-lg border p-4"
      data-testid="newsletter-card-skeleton"
      aria-hidden="true"
    >
      <div className="flex gap-3">
        <div className="size-16 animate-pulse rounded-md bg-muted" />
        <div className="flex flex-1 flex-col gap-2">
          <div className="h-4 w-2/3 animate-pulse rounded bg-muted" />
          <div className="h-3 w-1/3 animate-pulse rounded bg-muted" />
        </div>
      </div>
      <div className="h-3 w-full animate-pulse rounded bg-muted" />
      <div className="h-3 w-4/5 animate-pulse rounded bg-muted" />
    </div>
  )
}
