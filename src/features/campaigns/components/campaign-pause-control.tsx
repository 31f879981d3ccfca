/**
 * Pause or resume a newsletter from Manage. Pausing stops new subscriptions at once; reservations already made
 * are honoured (PRODUCT "Money"), which the text says with their number.
 */
import { toast } from '@/lib/toast'
import { Button } from '@/components/ui/button'
import type { CampaignDetail } from '../api/campaign-detail-query'
import { useCampaignPauseMutation } from '../api/campaign-pause-mutation'

export function CampaignPauseControl({ campaign }: { campaign: CampaignDetail }) {
  const pause = useCampaignPauseMutation({
    onSuccess: ({ paused }) => toast.success(paused ? 'Newsletter paused' : 'Newsletter resumed'),
  })
  if (campaign.status !== 'active' && campaign.status !== 'paused')
    return <p className="text-sm text-muted-foreground">A newsletter can be paused once an admin has approved it.</p>
  const paused = campaign.status === 'paused'
  return (
    <div className="flex flex-col items-start gap-3" data-testid="campaign-pause-control">
      <p className="text-sm text-muted-foreground">
        {paused
          ? `Paused: no new subscriptions. ${campaign.reservations_open} reserved before the pause can still confirm.`
          : 'Pausing stops new subscriptions at once; subscribers already reserved can still confirm.'}
      </p>
      <Button
        type="button"
        variant="outline"
        disabled={pause.isPending}
        onClick={() => pause.mutate({ campaignId: campaign.id, paused: !paused })}
      >
        {paused ? 'Resume newsletter' : 'Pause newsletter'}
      </Button>
    </div>
  )
}
