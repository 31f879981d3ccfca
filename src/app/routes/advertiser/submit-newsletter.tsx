/** List a newsletter: the form, then back to the overview where it waits for review. */
import { useNavigate } from 'react-router-dom'
import { toast } from '@/lib/toast'
import { paths } from '@/config/paths'
import { useSession } from '@/lib/session'
import { PageHeader } from '@/components/page-header'
import { CampaignForm } from '@/features/campaigns/components/campaign-form'

export default function SubmitNewsletterPage() {
  const { user } = useSession()
  const navigate = useNavigate()
  return (
    <div className="max-w-2xl">
      <PageHeader
        title="Submit a newsletter"
        description="You pay the price per subscriber only for readers who confirm by email through an approved influencer. An admin reviews every newsletter before it is shown."
      />
      <CampaignForm
        advertiserId={user?.id ?? ''}
        onCreated={(campaign) => {
          toast.success(`${campaign.name} was submitted for review`)
          navigate(paths.advertiser.root)
        }}
      />
    </div>
  )
}
