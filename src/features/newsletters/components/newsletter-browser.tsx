/**
 * 'Browse Newsletters' (`/newsletters`, `/campaigns`): active newsletters, searchable and filterable, a page at
 * a time. Visitors pick several and subscribe once: the page passes in the subscribe form through
 * `renderSubscribe` so this feature does not depend on the subscriptions feature.
 */
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react'
import { useSearchParams } from 'react-router-dom'
import { Button } from '@/components/ui/button'
import { HydrateWhenVisible } from '@/lib/deferred-hydration'
import { formatCount } from '@/lib/format'
import { cn } from '@/lib/utils'
import { useActiveCampaignsQuery } from '../api/active-campaigns-query'
import type { CampaignCard } from '../api/campaign-types'
import type { NewsletterFilters as Filters } from '../keys'
import { trackPageView } from '../lib/tracking'
import { NewsletterCard, NewsletterCardSkeleton } from './newsletter-card'
import { useNewsletterEngagedRatesQuery } from '@/components/engaged-rate'
import { NewsletterFilters } from './newsletter-filters'
import { SourceBanner } from './source-banner'

export type SelectedNewsletter = Pick<CampaignCard, 'id' | 'name'>

export function NewsletterBrowser({
  subscribedIds,
  confirmedIds = [],
  subscribeFormId,
  renderSubscribe,
}: {
  subscribedIds: readonly string[]
  /** Newsletters this browser confirmed: their cards say so instead of "Check your email". */
  confirmedIds?: readonly string[]
  /** The id of the subscribe form `renderSubscribe` renders: the phone's bar submits it. */
  subscribeFormId?: string
  renderSubscribe: (selected: SelectedNewsletter[], clear: () => void) => ReactNode
}) {
  const [params, setParams] = useSearchParams()
  const filters: Filters = { search: params.get('q') ?? '', category: params.get('category') ?? '' }
  const campaigns = useActiveCampaignsQuery(filters)
  const [selected, setSelected] = useState<SelectedNewsletter[]>([])

  useEffect(() => {
    trackPageView('newsletters', { source: params.get('source'), audienceSourceId: params.get('audience_source_id') })
    // Once per visit: later filter changes are tracked as filters, not as page views.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  const setFilters = useCallback(
    (next: Filters) => {
      setParams(
        (current) => {
          const query = new URLSearchParams(current)
          for (const [key, value] of [
            ['q', next.search.trim()],
            ['category', next.category],
          ] as const) {
            if (value) query.set(key, value)
            else query.delete(key)
          }
          return query
        },
        { replace: true },
      )
    },
    [setParams],
  )

  const rows = useMemo(() => campaigns.data?.pages.flatMap((p) => p.rows) ?? [], [campaigns.data])
  // Their engaged rates, computed by the database (aggregates only), in one request for the cards loaded.
  const rowIds = useMemo(() => rows.map((c) => c.id), [rows])
  const rates = useNewsletterEngagedRatesQuery(rowIds)
  const total = campaigns.data?.pages[0]?.total
  const toggle = (campaign: CampaignCard) =>
    setSelected((current) =>
      current.some((c) => c.id === campaign.id)
        ? current.filter((c) => c.id !== campaign.id)
        : [...current, { id: campaign.id, name: campaign.name }],
    )
  const clear = useCallback(() => setSelected([]), [])
  // One subscribe button on screen at a time: the phone's bar shows only while the form's own button is out of view.
  const panelInView = usePanelInView('subscribe-panel', selected.length > 0)
  // The bar submits the form once an address is typed; before that it takes the reader to the email field.
  const subscribeFromBar = () => {
    const panel = document.getElementById('subscribe-panel')
    const form = subscribeFormId ? document.getElementById(subscribeFormId) : null
    const email = panel?.querySelector<HTMLInputElement>('input[type="email"]')
    panel?.scrollIntoView?.({ behavior: 'smooth', block: 'start' })
    if (form instanceof HTMLFormElement && email?.value.trim()) form.requestSubmit()
    else email?.focus({ preventScroll: true })
  }

  return (
    <section
      className={cn('mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-10', selected.length > 0 && 'pb-28 lg:pb-10')}
    >
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold tracking-tight">Browse Newsletters</h1>
        <p className="text-muted-foreground">
          Pick the newsletters you want to read and subscribe to all of them with one email address.
        </p>
        <p className="text-sm font-medium" aria-live="polite" data-testid="newsletter-count">
          {total === undefined ? '\u00a0' : `${formatCount(total)} ${total === 1 ? 'newsletter' : 'newsletters'}`}
        </p>
      </header>
      <SourceBanner />
      <NewsletterFilters filters={filters} onChange={setFilters} />

      <div className="grid gap-6 lg:grid-cols-[1fr_320px]">
        <div className="flex flex-col gap-4">
          {campaigns.isPending ? (
            <div role="status" className="grid gap-4 sm:grid-cols-2">
              <span className="sr-only">Loading newsletters…</span>
              {Array.from({ length: 4 }, (_, i) => (
                <NewsletterCardSkeleton key={i} />
              ))}
            </div>
          ) : campaigns.isError ? (
            <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-red-800">
              <p className="font-semibold">We couldn&apos;t load newsletters. Try again.</p>
              <p className="text-sm">Check your connection; nothing you chose is lost.</p>
              <Button className="mt-3" size="sm" variant="outline" onClick={() => void campaigns.refetch()}>
                Try again
              </Button>
            </div>
          ) : rows.length === 0 ? (
            <p className="rounded-lg border p-8 text-center text-muted-foreground">
              {filters.search || filters.category
                ? 'No newsletters match your search.'
                : 'No newsletters are open for subscribers right now.'}
            </p>
          ) : (
            // The cards and the form hydrate as they come into view or are used (lib/deferred-hydration.tsx).
            <HydrateWhenVisible id="newsletter-cards">
              <ul className="grid gap-4 sm:grid-cols-2" aria-label="Newsletters">
                {rows.map((campaign) => (
                  <li key={campaign.id}>
                    <NewsletterCard
                      campaign={campaign}
                      selected={selected.some((c) => c.id === campaign.id)}
                      alreadySubscribed={subscribedIds.includes(campaign.id)}
                      confirmed={confirmedIds.includes(campaign.id)}
                      engagedRate={rates.data?.get(campaign.id)}
                      onToggle={() => toggle(campaign)}
                    />
                  </li>
                ))}
              </ul>
              {campaigns.hasNextPage && (
                <div className="flex justify-center">
                  <Button
                    variant="outline"
                    disabled={campaigns.isFetchingNextPage}
                    onClick={() => void campaigns.fetchNextPage()}
                  >
                    {campaigns.isFetchingNextPage ? 'Loading…' : 'Load more'}
                  </Button>
                </div>
              )}
            </HydrateWhenVisible>
          )}
        </div>
        <aside id="subscribe-panel" aria-label="Subscribe" className="scroll-mt-20 lg:sticky lg:top-4 lg:self-start">
          <HydrateWhenVisible id="subscribe-form">{renderSubscribe(selected, clear)}</HydrateWhenVisible>
        </aside>
      </div>
      {selected.length > 0 && !panelInView ? (
        // On a phone the form sits below every card: once something is chosen, a bar takes the reader there.
        <div
          className="fixed inset-x-0 bottom-0 z-30 border-t bg-background/95 p-3 backdrop-blur lg:hidden"
          data-testid="subscribe-bar"
        >
          <Button className="w-full" onClick={subscribeFromBar}>
            Subscribe to {selected.length} {selected.length === 1 ? 'newsletter' : 'newsletters'}
          </Button>
        </div>
      ) : null}
    </section>
  )
}

/** Whether the element with `id` is on screen (IntersectionObserver); false where the browser has none. */
function usePanelInView(id: string, watching: boolean): boolean {
  const [inView, setInView] = useState(false)
  useEffect(() => {
    const panel = document.getElementById(id)
    if (!watching || !panel || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(([entry]) => setInView(Boolean(entry?.isIntersecting)), {
      threshold: 0.25,
    })
    observer.observe(panel)
    return () => {
      observer.disconnect()
      setInView(false)
    }
  }, [id, watching])
  return inView
}
