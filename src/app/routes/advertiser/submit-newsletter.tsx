/** List a newsletter: the form, then back to the overview where it waits for review. */
import { useNavigate } from 'react-router-dom'
import { toast } from '@/lib/toast'
import { paths } from '@/config/paths'
import { useSession } from '@/lib/session'
import { CampaignForm } from '@/features/campaigns/components/campaign-form'

export default function SubmitNewsletterPage() {
  const { user } = useSession()
  const navigate = useNavigate()
  return (
    <div className="max-w-2xl space-y-4">
      <div>
        <h1 className="text-2xl font-bold">Submit a newsletter</h1>
        <p className="text-muted-foreground">
          You pay the price per subscriber only for readers who confirm by email through an approved influencer. An
          admin reviews every newsletter before it is shown.
        </p>
      </div>
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
