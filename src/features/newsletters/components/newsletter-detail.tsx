/**
 * One newsletter's page: used by `/newsletters/{id}`, the campaign link pages and the admin preview.
 * The subscribe form (or a preview note) comes in as `children`.
 */
import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { paths } from '@/config/paths'
import { Badge } from '@/components/ui/badge'
import { categoryLabel } from '@/lib/vocabulary-catalog'
import { frequencyLabel } from '@/lib/vocabulary'
import { formatCount } from '@/lib/format'
import { Button } from '@/components/ui/button'
import { PageSpinner } from '@/components/page-spinner'
import type { CampaignCard } from '../api/campaign-types'
import { useNewsletterAvailabilityQuery } from '../api/newsletter-availability-query'
import { FACT_LABELS, NewsletterImage } from './newsletter-card'

export function NewsletterDetail({ campaign, children }: { campaign: CampaignCard; children?: ReactNode }) {
  return (
    <article
      className="mx-auto grid w-full max-w-5xl gap-8 px-4 py-10 md:grid-cols-[1fr_340px]"
      data-testid="newsletter-detail"
    >
      <div className="flex flex-col gap-4">
        <div className="flex items-start gap-4">
          <NewsletterImage campaign={campaign} size={96} />
          <div className="flex flex-col gap-1">
            <h1 className="text-3xl font-bold tracking-tight">{campaign.name}</h1>
            <p className="text-muted-foreground">by {campaign.advertiser?.full_name || 'an independent writer'}</p>
            {campaign.category && (
              <Badge variant="secondary" className="w-fit">
                {categoryLabel(campaign.category)}
              </Badge>
            )}
          </div>
        </div>
        {campaign.audience_line && (
          <p className="text-lg leading-snug font-medium" data-testid="newsletter-audience-line">
            {campaign.audience_line}
          </p>
        )}
        <NewsletterFacts campaign={campaign} />
        {campaign.description && <p className="leading-relaxed whitespace-pre-line">{campaign.description}</p>}
        {campaign.sample_issue_url && /^https:\/\//i.test(campaign.sample_issue_url) && (
          <Button asChild variant="outline" className="w-full sm:w-fit">
            <a href={campaign.sample_issue_url} target="_blank" rel="noopener noreferrer nofollow">
              Read a sample issue<span className="sr-only"> (opens in a new tab)</span>
            </a>
          </Button>
        )}
        {campaign.website_url && /^https?:\/\//i.test(campaign.website_url) && (
          <a
            href={campaign.website_url}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="w-fit text-sm text-primary underline-offset-4 hover:underline"
          >
            Visit the newsletter's website<span className="sr-only"> (opens in a new tab)</span>
          </a>
        )}
        <Link to={paths.newsletters} className="w-fit text-sm text-muted-foreground underline-offset-4 hover:underline">
          ← All newsletters
        </Link>
      </div>
      <aside aria-label="Subscribe">{children}</aside>
    </article>
  )
}

/**
 * How often it goes out and how many readers it has, as its advertiser states them (approved by an admin like
 * the name); nothing when neither is stated.
 */
export function NewsletterFacts({ campaign }: { campaign: CampaignCard }) {
  const frequency = campaign.frequency ? frequencyLabel(campaign.frequency) : null
  const readers = campaign.audience_size ?? null
  if (!frequency && readers === null) return null
  return (
    <dl className="grid grid-cols-2 gap-3 sm:max-w-md" data-testid="newsletter-facts">
      {frequency && (
        <div className="rounded-md border bg-muted/40 px-3 py-2">
          <dt className="text-xs text-muted-foreground">{FACT_LABELS.frequency}</dt>
          <dd className="font-semibold">{frequency}</dd>
        </div>
      )}
      {readers !== null && (
        <div className="rounded-md border bg-muted/40 px-3 py-2">
          <dt className="text-xs text-muted-foreground">{FACT_LABELS.readers}</dt>
          <dd className="font-semibold tabular-nums">{formatCount(readers)}</dd>
        </div>
      )}
    </dl>
  )
}

const unavailableTexts = {
  out_of_budget: {
    title: 'This newsletter is not taking new subscribers right now',
    text: 'Its budget for new subscribers is used up for now. Other newsletters are open: pick one or more and subscribe with one email.',
  },
  paused: {
    title: 'This newsletter is paused',
    text: 'Its owner paused new subscriptions for now. Other newsletters are open: pick one or more and subscribe with one email.',
  },
  closed: {
    title: 'This newsletter is closed',
    text: 'It no longer takes new subscribers. Other newsletters are open: pick one or more and subscribe with one email.',
  },
} as const

/**
 * A newsletter the public pages cannot show: why (out of budget, paused, closed), with the way to the others;
 * "Newsletter not found" only for an id that is unknown or never approved.
 */
export function NewsletterUnavailable({ id }: { id: string }) {
  const availability = useNewsletterAvailabilityQuery(id)
  if (availability.isPending) return <NewsletterState state="loading" />
  const kind = availability.data
  if (kind !== 'out_of_budget' && kind !== 'paused' && kind !== 'closed') return <NewsletterState state="not-found" />
  return (
    <section
      className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-16 text-center"
      data-testid="newsletter-unavailable"
      data-reason={kind}
    >
      <h1 className="text-2xl font-semibold">{unavailableTexts[kind].title}</h1>
      <p className="text-muted-foreground">{unavailableTexts[kind].text}</p>
      <Button asChild>
        <Link to={paths.newsletters}>Browse other newsletters</Link>
      </Button>
    </section>
  )
}

/** What a newsletter page shows while loading, on failure, or when the newsletter is unknown or inactive. */
// `message` (the client's words) is accepted but never shown: a visitor reads a sentence, never "TypeError".
export function NewsletterState({ state }: { state: 'loading' | 'error' | 'not-found'; message?: string }) {
  if (state === 'loading') return <PageSpinner label="Loading newsletter…" />
  return (
    <section
      className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-16 text-center"
      role={state === 'error' ? 'alert' : undefined}
    >
      <h1 className="text-2xl font-semibold">
        {state === 'error' ? 'Could not load this newsletter' : 'Newsletter not found'}
      </h1>
      <p className="text-muted-foreground">
        {state === 'error'
          ? "We couldn't load this newsletter. Check your connection and try again."
          : 'This newsletter does not exist or is not open for subscribers right now.'}
      </p>
      <Button asChild>
        <Link to={paths.newsletters}>Browse Newsletters</Link>
      </Button>
    </section>
  )
}
