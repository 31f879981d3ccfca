/**
 * One email, one or more newsletters (issue 7). Sends the magic-link attribution from local storage unless
 * the page passes its own (the campaign link pages know their source and click). On success the ids join
 * `subscribed_newsletters` and the visitor is told to check their inbox.
 */
import { useId, useState, type FormEvent } from 'react'
import { useMutation } from '@tanstack/react-query'
import { MailCheckIcon } from 'lucide-react'
import { toast } from '@/lib/toast'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import type { SubscribeResult, SubscribeVariables } from '../api/subscribe-mutation'
import { addSubscribedNewsletters } from '../lib/subscribed-newsletters'
import { readSubscriptionAttribution, type SubscriptionAttribution } from '../lib/subscription-attribution'
import { loadSubscribeApi, useEmailField } from './use-email-field'

export type SubscribeTarget = { id: string; name: string }

const names = (items: { newsletterName: string }[]) => items.map((i) => i.newsletterName).join(', ')

export function SubscribeForm({
  newsletters,
  attribution,
  onSubscribed,
  title = 'Subscribe',
}: {
  newsletters: SubscribeTarget[]
  attribution?: SubscriptionAttribution
  onSubscribed?: (result: SubscribeResult) => void
  title?: string
}) {
  const id = useId()
  // The same call as useSubscribeMutation, loaded with the schema when the form is first used.
  const mutation = useMutation({
    mutationFn: async (variables: SubscribeVariables) => (await loadSubscribeApi()).subscribe(variables),
  })
  const [done, setDone] = useState<{ email: string; result: SubscribeResult } | null>(null)
  const field = useEmailField()
  const emailError = field.error

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const email = await field.validate()
    if (email === null || newsletters.length === 0) return
    try {
      const result = await mutation.mutateAsync({
        email,
        campaignIds: newsletters.map((n) => n.id),
        ...(attribution ?? readSubscriptionAttribution()),
      })
      addSubscribedNewsletters(newsletters.map((n) => n.id))
      setDone({ email, result })
      field.reset()
      toast.success('Check your inbox', { description: `We sent an email to ${email}.` })
      onSubscribed?.(result)
    } catch (error) {
      const message = error instanceof Error ? error.message : 'Please try again later'
      field.setError(message)
      toast.error(`Failed to subscribe: ${message}`)
    }
  }

  return (
    <div className="flex flex-col gap-4 rounded-lg border bg-card p-5 shadow-sm" data-testid="subscribe-panel">
      <h2 className="text-lg font-semibold">{title}</h2>
      {done && (
        <div role="status" className="flex gap-2 rounded-md bg-green-50 p-3 text-sm text-green-900" data-testid="subscribe-success">
          <MailCheckIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <div className="flex flex-col gap-1">
            <p>
              Check your inbox: we sent one email to <strong>{done.email}</strong> about {names(done.result.pending)}. Confirm
              each newsletter with its link.
            </p>
          </div>
        </div>
      )}
      {newsletters.length === 0 ? (
        <p className="text-sm text-muted-foreground">Select one or more newsletters to subscribe with one email.</p>
      ) : (
        <p className="text-sm text-muted-foreground" data-testid="subscribe-selection">
          {newsletters.length === 1 ? 'Newsletter: ' : `${newsletters.length} newsletters: `}
          {newsletters.map((n) => n.name).join(', ')}
        </p>
      )}
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-3">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-email`}>Email address</Label>
          <Input
            id={`${id}-email`}
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            aria-invalid={Boolean(emailError)}
            aria-describedby={emailError ? `${id}-email-error` : undefined}
            {...field.inputProps}
          />
          {emailError && (
            <p id={`${id}-email-error`} role="alert" className="text-sm text-red-700">
              {emailError}
            </p>
          )}
        </div>
        <Button type="submit" disabled={newsletters.length === 0 || mutation.isPending}>
          {mutation.isPending
            ? 'Subscribing…'
            : newsletters.length > 1
              ? `Subscribe to ${newsletters.length} newsletters`
              : 'Subscribe'}
        </Button>
        <p className="text-xs text-muted-foreground">
          We email you a link for each newsletter; nothing starts until you confirm.
        </p>
      </form>
    </div>
  )
}
