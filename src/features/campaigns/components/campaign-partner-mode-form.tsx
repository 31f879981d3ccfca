/**
 * Who may promote a newsletter (campaigns.partner_mode, PRODUCT "Partner programs"): open to every approved source,
 * or by approval, where only the sources the advertiser approved on the Partners page are paid. It decides every
 * confirmation from then on (the database's not_a_partner rule); it is not a public field, so no review is needed.
 */
import { useState } from 'react'
import { toast } from '@/lib/toast'
import { partnerModeOptions, type PartnerMode } from '@/lib/vocabulary'
import { Button } from '@/components/ui/button'
import { useCampaignUpdateMutation } from '../api/campaign-update-mutation'

const hints: Record<PartnerMode, string> = {
  open: 'Any approved source can promote it and is paid, unless you block it.',
  approval: 'Influencers apply from their offers; only the sources you approve are paid.',
}

export function CampaignPartnerModeForm({ campaignId, mode }: { campaignId: string; mode: string }) {
  const [value, setValue] = useState(mode)
  const save = useCampaignUpdateMutation({
    action: 'change who may promote it',
    onSuccess: () => toast.success('Saved: it decides every confirmation from now on'),
  })
  return (
    <form
      className="grid gap-3"
      data-testid="partner-mode-form"
      onSubmit={(event) => {
        event.preventDefault()
        save.mutate({ campaignId, changes: { partner_mode: value as PartnerMode } })
      }}
    >
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Who may promote it</legend>
        {partnerModeOptions.map((option) => {
          const id = `partner-mode-${campaignId}-${option.value}`
          return (
            <div key={option.value} className="flex items-start gap-2 rounded-md border p-3 text-sm">
              <input
                id={id}
                type="radio"
                name={`partner-mode-${campaignId}`}
                value={option.value}
                checked={value === option.value}
                onChange={() => setValue(option.value)}
                aria-describedby={`${id}-hint`}
                className="mt-0.5"
              />
              <div>
                <label htmlFor={id} className="cursor-pointer font-medium">
                  {option.label}
                </label>
                <p id={`${id}-hint`} className="text-muted-foreground">
                  {hints[option.value]}
                </p>
              </div>
            </div>
          )
        })}
      </fieldset>
      <div>
        <Button type="submit" disabled={save.isPending || value === mode}>
          Save
        </Button>
      </div>
    </form>
  )
}
