/** `/newsletters/{id}`: one newsletter with its subscribe form; unknown or inactive → not found. */
import { useEffect } from 'react'
import { useParams } from 'react-router-dom'
import { useCampaignQuery } from '@/features/newsletters/api/campaign-query'
import { NewsletterDetail, NewsletterState } from '@/features/newsletters/components/newsletter-detail'
import { trackPageView } from '@/features/newsletters/lib/tracking'
import { SubscribeForm } from '@/features/subscriptions/components/subscribe-form'

export default function NewsletterPage() {
  const { id = '' } = useParams()
  const campaign = useCampaignQuery(id)
  useEffect(() => trackPageView('newsletter', { id }), [id])

  if (campaign.isPending) return <NewsletterState state="loading" />
  if (campaign.isError) return <NewsletterState state="error" message={campaign.error.message} />
  if (!campaign.data) return <NewsletterState state="not-found" />
  return (
    <NewsletterDetail campaign={campaign.data}>
      <SubscribeForm newsletters={[{ id: campaign.data.id, name: campaign.data.name }]} />
    </NewsletterDetail>
  )
}
