/** Per-newsletter campaign links `/campaign/{code}/{campaignId}` of one live source, each with a copy button. */
import { usePromotableCampaignsQuery } from '../api/promotable-campaigns-query'
import { campaignLinkUrl } from '../lib/source-status'
import { CopyButton } from '@/components/copy-button'

export function CampaignLinks({ unifiedCode, sourceName }: { unifiedCode: string; sourceName: string }) {
  const campaigns = usePromotableCampaignsQuery()
  if (campaigns.isPending) return <p className="text-sm text-muted-foreground">Loading newsletters…</p>
  if (campaigns.isError)
    return <p className="text-sm text-red-700">Could not load newsletters: {campaigns.error.message}</p>
  if (campaigns.data.length === 0)
    return <p className="text-sm text-muted-foreground">No newsletters to promote yet.</p>
  return (
    <details className="text-sm">
      <summary className="cursor-pointer font-medium">Campaign links per newsletter ({campaigns.data.length})</summary>
      <ul className="mt-2 flex flex-col gap-2">
        {campaigns.data.map((campaign) => {
          const link = campaignLinkUrl(window.location.origin, unifiedCode, campaign.id)
          return (
            <li key={campaign.id} className="flex flex-wrap items-center gap-2">
              <span className="min-w-32 font-medium">{campaign.name}</span>
              <code className="min-w-0 flex-1 truncate rounded bg-muted px-2 py-1">{link}</code>
              <CopyButton value={link} label={`Copy the ${campaign.name} link of ${sourceName}`} />
            </li>
          )
        })}
      </ul>
    </details>
  )
}
