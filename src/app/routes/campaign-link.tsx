/**
 * `/campaign/{campaignId}` and `/campaign/{magicLinkId}/{campaignId}` (PRODUCT.md "Campaign link pages"): the
 * newsletter as promoted by a source. With a source, the page joins (or starts) the visitor's click session,
 * records a page view on it once, and subscribes with that attribution.
 */
import { useEffect, useRef } from 'react'
import { useParams } from 'react-router-dom'
import { useSourceClickSessionQuery } from '@/features/magic-link/api/source-click-session-query'
import { useCampaignQuery } from '@/features/newsletters/api/campaign-query'
import { recordCampaignPageView } from '@/features/newsletters/api/campaign-page-view-mutation'
import { NewsletterDetail, NewsletterState } from '@/features/newsletters/components/newsletter-detail'
import { trackPageView } from '@/features/newsletters/lib/tracking'
import { SubscribeForm } from '@/features/subscriptions/components/subscribe-form'

export default function CampaignLinkPage() {
  const { magicLinkId, campaignId = '' } = useParams()
  const campaign = useCampaignQuery(campaignId)
  const click = useSourceClickSessionQuery(magicLinkId)
  const recorded = useRef<string | null>(null)

  const clickId = click.data?.clickId
  useEffect(() => {
    if (!clickId || !campaign.data) return
    const key = `${clickId}|${campaign.data.id}`
    if (recorded.current === key) return
    recorded.current = key
    trackPageView('campaign', { campaignId: campaign.data.id, source: magicLinkId })
    // A lost page view must not get in the visitor's way: it only affects the counters.
    recordCampaignPageView({ clickId, campaignId: campaign.data.id }).catch((error: unknown) =>
      console.warn('Could not record the campaign page view', error),
    )
  }, [clickId, campaign.data, magicLinkId])

  if (campaign.isPending || (magicLinkId && click.isPending)) return <NewsletterState state="loading" />
  if (campaign.isError) return <NewsletterState state="error" message={campaign.error.message} />
  if (!campaign.data) return <NewsletterState state="not-found" />
  const attribution = click.data ? { audienceSourceId: click.data.sourceId, clickId: click.data.clickId } : {}
  return (
    <NewsletterDetail campaign={campaign.data}>
      {click.data?.sourceName && (
        <p className="mb-3 text-sm text-muted-foreground" data-testid="campaign-source">
          Recommended by <strong>{click.data.sourceName}</strong>
        </p>
      )}
      <SubscribeForm newsletters={[{ id: campaign.data.id, name: campaign.data.name }]} attribution={attribution} />
    </NewsletterDetail>
  )
}
