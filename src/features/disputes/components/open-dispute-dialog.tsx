/**
 * The advertiser flags subscribers still in screening — some of one source's, or the whole source — and
 * says what is wrong. Only what open_dispute accepts is offered; the database checks it all again.
 */
import { useId, useMemo, useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'
import { MAX_DISPUTE_REASON_LENGTH } from '@rules/dispute'
import { formatCredits, formatDateTime } from '@/lib/format'
import { useDisputableSubscribersQuery } from '../api/disputable-subscribers-query'
import {
  openDisputeSchema,
  openDisputeVariables,
  useOpenDisputeMutation,
  type OpenDisputeValues,
} from '../api/open-dispute-mutation'

const empty: OpenDisputeValues = { sourceId: '', wholeSource: false, subscriptionIds: [], reason: '' }

export function OpenDisputeDialog() {
  const id = useId()
  const [open, setOpen] = useState(false)
  const subscribers = useDisputableSubscribersQuery(open)
  const form = useForm<OpenDisputeValues>({ resolver: zodResolver(openDisputeSchema), defaultValues: empty })
  const [sourceId, wholeSource, subscriptionIds] = useWatch({
    control: form.control,
    name: ['sourceId', 'wholeSource', 'subscriptionIds'],
  })
  const picked = new Set(subscriptionIds)
  const { errors } = form.formState
  // The schema reports one problem at a time; it shows in one place under the fields, as before.
  const error = errors.sourceId?.message ?? errors.subscriptionIds?.message ?? errors.reason?.message
  const mutation = useOpenDisputeMutation({ onSuccess: () => close() })
  // A ticked box re-checks the form once it was submitted, as a typed field does.
  const setPicked = (next: Set<string>) =>
    form.setValue('subscriptionIds', [...next], { shouldValidate: form.formState.isSubmitted })

  const sources = useMemo(() => {
    const byId = new Map<string, string>()
    for (const s of subscribers.data ?? []) byId.set(s.source_id, s.source_name)
    return [...byId.entries()]
  }, [subscribers.data])
  const ofSource = (subscribers.data ?? []).filter((s) => s.source_id === sourceId && !s.in_dispute)

  function close() {
    setOpen(false)
    form.reset(empty)
  }

  const onSubmit = form.handleSubmit((values) => mutation.mutate(openDisputeVariables(values)))

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? setOpen(true) : close())}>
      <DialogTrigger asChild>
        <Button variant="outline" data-testid="open-dispute">
          Dispute subscribers
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <form noValidate className="grid gap-4" onSubmit={(e) => void onSubmit(e)}>
          <DialogHeader>
            <DialogTitle>Dispute subscribers</DialogTitle>
            <DialogDescription>
              During their 7-day screening you can dispute subscribers you were charged for. Their charges stay on hold
              while the publisher answers and an admin decides; if the dispute is upheld, their price comes back to your
              balance.
            </DialogDescription>
          </DialogHeader>
          {subscribers.isPending ? (
            <p role="status">Loading your subscribers in screening…</p>
          ) : subscribers.isError ? (
            <p role="alert" className="text-sm text-red-700">
              Could not load your subscribers: {subscribers.error.message}
            </p>
          ) : sources.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              No charged subscriber is in screening: there is nothing to dispute.
            </p>
          ) : (
            <>
              <div className="grid gap-1.5">
                <Label htmlFor={`${id}-source`}>Source</Label>
                <select
                  id={`${id}-source`}
                  className="rounded-md border bg-background px-3 py-2 text-sm"
                  {...form.register('sourceId', {
                    // Another source's subscribers cannot stay ticked.
                    onChange: () => form.setValue('subscriptionIds', []),
                  })}
                >
                  <option value="">Choose a source</option>
                  {sources.map(([value, name]) => (
                    <option key={value} value={value}>
                      {name}
                    </option>
                  ))}
                </select>
              </div>
              {sourceId && (
                <>
                  <label className="flex items-center gap-2 text-sm">
                    <input type="checkbox" {...form.register('wholeSource')} />
                    Dispute the whole source (every subscriber of it still in screening)
                  </label>
                  {!wholeSource && (
                    <fieldset className="grid gap-1 rounded-md border p-2">
                      <legend className="px-1 text-sm font-medium">Subscribers in screening</legend>
                      {ofSource.map((s) => (
                        <label key={s.id} className="flex flex-wrap items-center gap-2 text-sm">
                          <input
                            type="checkbox"
                            checked={picked.has(s.id)}
                            onChange={(e) => {
                              const next = new Set(picked)
                              if (e.target.checked) next.add(s.id)
                              else next.delete(s.id)
                              setPicked(next)
                            }}
                          />
                          <span className="font-medium">{s.email}</span>
                          <span className="text-muted-foreground">
                            {s.campaign_name} · {s.confirmed_at ? formatDateTime(s.confirmed_at) : ''} ·{' '}
                            {formatCredits(s.price)}
                          </span>
                        </label>
                      ))}
                    </fieldset>
                  )}
                </>
              )}
              <div className="grid gap-1.5">
                <Label htmlFor={`${id}-reason`}>What is wrong?</Label>
                <Textarea
                  id={`${id}-reason`}
                  maxLength={MAX_DISPUTE_REASON_LENGTH}
                  aria-describedby={`${id}-reason-hint`}
                  {...form.register('reason')}
                />
                <p id={`${id}-reason-hint`} className="text-xs text-muted-foreground">
                  The source’s publisher reads this and has 72 hours to answer; leave readers’ email addresses out.
                </p>
              </div>
            </>
          )}
          {error && (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={mutation.isPending || sources.length === 0} data-testid="submit-dispute">
              {mutation.isPending ? 'Sending…' : 'Open dispute'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
