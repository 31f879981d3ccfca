/**
 * A source's standing with a newsletter's partner program, under its link on the offer (PRODUCT "Partner
 * programs"): a newsletter by approval asks the publisher to apply with a short message; the answer shows here.
 * A source that may not promote the newsletter is told so plainly: its readers are not paid ("not a partner").
 */
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Textarea } from '@/components/ui/textarea'
import { FormField } from '@/components/form-field'
import { formatCredits, formatDateTime } from '@/lib/format'
import { reasonLabel } from '@/lib/vocabulary'
import { APPLICATION_MESSAGE_MAX, useApplyMutation } from '../api/apply-mutation'
import type { Partnership } from '../api/publisher-partnerships-query'

const NOT_PAID = `Readers through this link are not paid (“${reasonLabel('not_a_partner')}”).`

function ApplyForm({
  campaignId,
  campaignName,
  sourceId,
  sourceName,
}: {
  campaignId: string
  campaignName: string
  sourceId: string
  sourceName: string
}) {
  const [open, setOpen] = useState(false)
  const [message, setMessage] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const apply = useApplyMutation({ onError: (e) => setProblem(e.message) })
  const fieldId = `apply-${campaignId}-${sourceId}`
  if (!open)
    return (
      <div>
        <Button type="button" size="sm" onClick={() => setOpen(true)}>
          Apply with {sourceName}
        </Button>
      </div>
    )
  return (
    <form
      className="grid gap-2"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        if (message.trim().length > APPLICATION_MESSAGE_MAX) {
          setProblem(`Keep the message under ${APPLICATION_MESSAGE_MAX} characters`)
          return
        }
        setProblem(null)
        apply.mutate({ campaignId, campaignName, sourceId, message })
      }}
    >
      <FormField
        id={fieldId}
        label={`Why ${sourceName} fits ${campaignName} (optional)`}
        hint={`${message.trim().length}/${APPLICATION_MESSAGE_MAX} characters. The advertiser sees it with your source's figures.`}
        error={problem ?? undefined}
      >
        <Textarea rows={3} value={message} onChange={(e) => setMessage(e.target.value)} />
      </FormField>
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={apply.isPending}>
          Send application
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  )
}

export function PartnerState({
  campaignId,
  campaignName,
  sourceId,
  sourceName,
  partnership,
}: {
  campaignId: string
  campaignName: string
  sourceId: string
  sourceName: string
  partnership: Partnership | undefined
}) {
  if (!partnership) return null
  const { status } = partnership
  if (status === 'approved')
    return (
      <p className="text-sm text-green-800" data-testid="partner-state">
        Partner.{' '}
        {partnership.ownPrice
          ? `Your own price: ${formatCredits(partnership.price)} per subscriber; you earn ${formatCredits(partnership.earning)}.`
          : `You earn ${formatCredits(partnership.earning)} per paid subscriber.`}
      </p>
    )
  if (status === 'blocked')
    return (
      <p className="rounded bg-red-50 px-2 py-1.5 text-sm text-red-800" data-testid="partner-state">
        The advertiser does not work with this source. {NOT_PAID}
      </p>
    )
  if (status === 'applied')
    return (
      <p className="rounded bg-yellow-50 px-2 py-1.5 text-sm text-yellow-900" data-testid="partner-state">
        Applied: waiting for the advertiser. {NOT_PAID.replace('are not paid', 'are paid once you are approved')}
      </p>
    )
  if (partnership.partnerMode !== 'approval') return null
  return (
    <div className="flex flex-col gap-2 rounded bg-muted px-2 py-2 text-sm" data-testid="partner-state">
      <p>
        {status === 'declined'
          ? `The advertiser declined${partnership.decidedAt ? ` on ${formatDateTime(partnership.decidedAt)}` : ''}; you can apply again 7 days later.`
          : 'This newsletter pays only the sources its advertiser approves.'}{' '}
        {NOT_PAID}
      </p>
      {status !== 'declined' && (
        <ApplyForm campaignId={campaignId} campaignName={campaignName} sourceId={sourceId} sourceName={sourceName} />
      )}
    </div>
  )
}
