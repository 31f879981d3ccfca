/**
 * `/newsletters/{id}`: one newsletter with its subscribe form; unknown or inactive → not found. A visitor who came
 * through a magic link opens the campaign on their click: it records a view (and the click for this campaign).
 */
import { useEffect } from 'react'
import { useParams } from 'react-router-dom'
import { useCampaignQuery } from '@/features/newsletters/api/campaign-query'
import {
  NewsletterDetail,
  NewsletterState,
  NewsletterUnavailable,
} from '@/features/newsletters/components/newsletter-detail'
import { trackPageView } from '@/features/newsletters/lib/tracking'
import { recordCampaignPageView } from '@/features/newsletters/api/campaign-page-view-request'
import { readSubscriptionAttribution } from '@/features/subscriptions/lib/subscription-attribution'
import { SubscribeForm } from '@/features/subscriptions/components/subscribe-form'

export default function NewsletterPage() {
  const { id = '' } = useParams()
  const campaign = useCampaignQuery(id)
  useEffect(() => trackPageView('newsletter', { id }), [id])
  const campaignId = campaign.data?.id
  useEffect(() => {
    const { clickId } = readSubscriptionAttribution()
    if (!clickId || !campaignId) return
    // A lost view must not get in the visitor's way: it only affects the counters.
    recordCampaignPageView({ clickId, campaignId }).catch((error: unknown) =>
      console.warn('Could not record the newsletter view', error),
    )
  }, [campaignId])

  if (campaign.isPending) return <NewsletterState state="loading" />
  if (campaign.isError) return <NewsletterState state="error" message={campaign.error.message} />
  if (!campaign.data) return <NewsletterUnavailable id={id} />
  return (
    <NewsletterDetail campaign={campaign.data}>
      <SubscribeForm newsletters={[{ id: campaign.data.id, name: campaign.data.name }]} />
    </NewsletterDetail>
  )
}
