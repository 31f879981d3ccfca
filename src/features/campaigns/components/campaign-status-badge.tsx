/** A campaign status in the one vocabulary's words and colour (src/lib/vocabulary.ts). */
import { Badge } from '@/components/ui/badge'
import { campaignStatus } from '@/lib/vocabulary'

export function CampaignStatusBadge({ status }: { status: string }) {
  const word = campaignStatus(status)
  return (
    <Badge variant={word.tone} data-testid="campaign-status">
      {word.label}
    </Badge>
  )
}
