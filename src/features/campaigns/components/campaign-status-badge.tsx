/** A campaign status in words and colour: green running, yellow waiting, red refused, grey otherwise. */
import { Badge } from '@/components/ui/badge'

const labels: Record<string, string> = {
  draft: 'Draft',
  pending_review: 'Pending review',
  active: 'Active',
  paused: 'Paused',
  rejected: 'Rejected',
  completed: 'Completed',
}

const variant = (status: string) =>
  status === 'active' ? 'green' : status === 'pending_review' || status === 'paused' ? 'yellow' : status === 'rejected' ? 'red' : 'grey'

export function CampaignStatusBadge({ status }: { status: string }) {
  return (
    <Badge variant={variant(status)} data-testid="campaign-status">
      {labels[status] ?? status}
    </Badge>
  )
}
