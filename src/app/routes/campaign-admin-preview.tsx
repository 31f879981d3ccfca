/** `/campaign/admin/{campaignId}`: an admin's preview of a campaign page in any status. It records nothing. */
import { useParams } from 'react-router-dom'
import { useSession } from '@/lib/session'
import { campaignStatus } from '@/lib/vocabulary'
import { PageSpinner } from '@/components/page-spinner'
import { useCampaignQuery } from '@/features/newsletters/api/campaign-query'
import { NewsletterDetail, NewsletterState } from '@/features/newsletters/components/newsletter-detail'

export default function CampaignAdminPreviewPage() {
  const { campaignId = '' } = useParams()
  const { user, userType, isLoading } = useSession()
  const isAdmin = Boolean(user) && userType === 'admin'
  const campaign = useCampaignQuery(campaignId, { preview: true, enabled: isAdmin })

  if (isLoading) return <PageSpinner />
  if (!isAdmin) {
    return (
      <section className="mx-auto flex max-w-xl flex-col gap-3 px-4 py-16 text-center" role="alert">
        <h1 className="text-2xl font-semibold">Admins only</h1>
        <p className="text-muted-foreground">
          This preview is only available to admins. Sign in with an admin account to preview campaigns.
        </p>
      </section>
    )
  }
  if (campaign.isPending) return <NewsletterState state="loading" />
  if (campaign.isError) return <NewsletterState state="error" message={campaign.error.message} />
  if (!campaign.data) return <NewsletterState state="not-found" />
  return (
    <NewsletterDetail campaign={campaign.data}>
      <div className="rounded-lg border border-dashed p-5 text-sm" data-testid="admin-preview-note">
        <p className="font-semibold">Admin preview</p>
        <p className="text-muted-foreground">
          Status: <strong>{campaignStatus(campaign.data.status).label}</strong>. Visitors see a subscribe form here;
          this preview records no views and sends nothing.
        </p>
      </div>
    </NewsletterDetail>
  )
}
