/**
 * The advertiser flags subscribers still in screening — some of one source's, or the whole source — and
 * says what is wrong. Only what open_dispute accepts is offered; the database checks it all again.
 */
import { useId, useMemo, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'
import { formatCredits, formatDateTime } from '@/lib/format'
import { useDisputableSubscribersQuery } from '../api/disputable-subscribers-query'
import { disputeReasonError, useOpenDisputeMutation } from '../api/open-dispute-mutation'

export function OpenDisputeDialog() {
  const id = useId()
  const [open, setOpen] = useState(false)
  const subscribers = useDisputableSubscribersQuery(open)
  const [sourceId, setSourceId] = useState('')
  const [wholeSource, setWholeSource] = useState(false)
  const [picked, setPicked] = useState<Set<string>>(new Set())
  const [reason, setReason] = useState('')
  const [error, setError] = useState<string | null>(null)
  const mutation = useOpenDisputeMutation({ onSuccess: () => close() })

  const sources = useMemo(() => {
    const byId = new Map<string, string>()
    for (const s of subscribers.data ?? []) byId.set(s.source_id, s.source_name)
    return [...byId.entries()]
  }, [subscribers.data])
  const ofSource = (subscribers.data ?? []).filter((s) => s.source_id === sourceId && !s.in_dispute)

  function close() {
    setOpen(false)
    setSourceId('')
    setWholeSource(false)
    setPicked(new Set())
    setReason('')
    setError(null)
  }

  function submit() {
    const problem = !sourceId
      ? 'Choose the source the subscribers came from'
      : !wholeSource && picked.size === 0
        ? 'Tick the subscribers you dispute, or dispute the whole source'
        : disputeReasonError(reason)
    setError(problem)
    if (problem) return
    mutation.mutate({ reason, subscriptionIds: wholeSource ? null : [...picked], sourceId: wholeSource ? sourceId : null })
  }

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? setOpen(true) : close())}>
      <DialogTrigger asChild>
        <Button variant="outline" data-testid="open-dispute">
          Dispute subscribers
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault()
            submit()
          }}
        >
          <DialogHeader>
            <DialogTitle>Dispute subscribers</DialogTitle>
            <DialogDescription>
              During their 7-day screening you can dispute subscribers you were charged for. If an admin upholds the
              dispute, their price comes back to your balance.
            </DialogDescription>
          </DialogHeader>
          {subscribers.isPending ? (
            <p role="status">Loading your subscribers in screening…</p>
          ) : subscribers.isError ? (
            <p role="alert" className="text-sm text-red-700">
              Could not load your subscribers: {subscribers.error.message}
            </p>
          ) : sources.length === 0 ? (
            <p className="text-sm text-muted-foreground">No charged subscriber is in screening: there is nothing to dispute.</p>
          ) : (
            <>
              <div className="grid gap-1.5">
                <Label htmlFor={`${id}-source`}>Source</Label>
                <select
                  id={`${id}-source`}
                  className="rounded-md border bg-background px-3 py-2 text-sm"
                  value={sourceId}
                  onChange={(e) => {
                    setSourceId(e.target.value)
                    setPicked(new Set())
                  }}
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
                    <input type="checkbox" checked={wholeSource} onChange={(e) => setWholeSource(e.target.checked)} />
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
                            {s.campaign_name} · {s.confirmed_at ? formatDateTime(s.confirmed_at) : ''} · {formatCredits(s.price)}
                          </span>
                        </label>
                      ))}
                    </fieldset>
                  )}
                </>
              )}
              <div className="grid gap-1.5">
                <Label htmlFor={`${id}-reason`}>What is wrong?</Label>
                <Textarea id={`${id}-reason`} value={reason} maxLength={2000} onChange={(e) => setReason(e.target.value)} />
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
