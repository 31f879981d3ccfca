/** Chooses which of the advertiser's campaigns the analytics page shows. */
import type { MyCampaign } from '../api/advertiser-campaigns-query'

type CampaignPickerProps = { campaigns: MyCampaign[]; value: string | null; onChange: (campaignId: string) => void }

export function CampaignPicker({ campaigns, value, onChange }: CampaignPickerProps) {
  return (
    <div className="grid max-w-md gap-1.5">
      <label htmlFor="campaign-picker" className="text-sm font-medium">
        Newsletter
      </label>
      <select
        id="campaign-picker"
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value)}
        className="flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none md:text-sm"
      >
        {value === null && (
          <option value="" disabled>
            Choose a newsletter
          </option>
        )}
        {campaigns.map((campaign) => (
          <option key={campaign.id} value={campaign.id}>
            {campaign.name}
          </option>
        ))}
      </select>
    </div>
  )
}
