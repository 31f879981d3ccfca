/**
 * `/campaign/{campaignId}` and `/campaign/{magicLinkId}/{campaignId}` (PRODUCT.md "Campaign link pages"): the
 * newsletter as promoted by a source. With a source, the page joins (or starts) the visitor's click session,
 * records a page view on it once, and subscribes with that attribution.
 */
import { useEffect, useRef } from 'react'
import { useParams } from 'react-router-dom'
import { useSourceClickSessionQuery } from '@/features/magic-link/api/source-click-session-query'
import { useCampaignQuery } from '@/features/newsletters/api/campaign-query'
import { recordCampaignPageView } from '@/features/newsletters/api/campaign-page-view-request'
import {
  NewsletterDetail,
  NewsletterState,
  NewsletterUnavailable,
} from '@/features/newsletters/components/newsletter-detail'
import { trackPageView } from '@/features/newsletters/lib/tracking'
import { SubscribeForm } from '@/features/subscriptions/components/subscribe-form'
import { PENDING_SOURCE_LINK_TEXT } from '@/lib/source-review'

export default function CampaignLinkPage() {
  const { magicLinkId, campaignId = '' } = useParams()
  const campaign = useCampaignQuery(campaignId)
  const click = useSourceClickSessionQuery(magicLinkId)
  const recorded = useRef<string | null>(null)

  const session = click.data && !click.data.pendingReview ? click.data : null
  const clickId = session?.clickId
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
  if (!campaign.data) return <NewsletterUnavailable id={campaignId} />
  const attribution = session ? { audienceSourceId: session.sourceId, clickId: session.clickId } : {}
  return (
    <NewsletterDetail campaign={campaign.data}>
      {session?.sourceName && (
        <p className="mb-3 text-sm text-muted-foreground" data-testid="campaign-source">
          Recommended by <strong>{session.sourceName}</strong>
        </p>
      )}
      {click.data?.pendingReview && (
        <p className="mb-3 rounded-md bg-muted p-2 text-sm" data-testid="campaign-source-pending">
          {PENDING_SOURCE_LINK_TEXT}. You can still subscribe below.
        </p>
      )}
      <SubscribeForm newsletters={[{ id: campaign.data.id, name: campaign.data.name }]} attribution={attribution} />
    </NewsletterDetail>
  )
}
