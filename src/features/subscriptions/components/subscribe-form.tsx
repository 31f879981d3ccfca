/**
 * One email, one or more newsletters (issue 7). Sends the magic-link attribution from local storage unless
 * the page passes its own (the campaign link pages know their source and click). On success the ids join
 * `subscribed_newsletters` and the visitor is told to check their inbox.
 */
import { useEffect, useId, useState } from 'react'
import { useMutation } from '@tanstack/react-query'
import { MailCheckIcon } from 'lucide-react'
import { toast } from '@/lib/toast'
import { useFormFields } from '@/lib/use-form-fields'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import type { SubscribeResult, SubscribeVariables } from '../api/subscribe-request'
import { addSubscribedNewsletters } from '../lib/subscribed-newsletters'
import { readSubscriptionAttribution, type SubscriptionAttribution } from '../lib/subscription-attribution'
import { subscribeRules } from '../subscribe-rules'

type SubscribeApi = typeof import('../api/subscribe-request')

let api: Promise<SubscribeApi> | null = null
/**
 * The function call downloads when the visitor starts on the form (focus), not with every newsletter page.
 * Loaded once; a failed chunk download is retried on the next use.
 */
const loadSubscribeApi = () =>
  (api ??= import('../api/subscribe-request').catch((error: unknown) => {
    api = null
    throw error
  }))

export type SubscribeTarget = { id: string; name: string }

const names = (items: { newsletterName: string }[]) => items.map((i) => i.newsletterName).join(', ')

export function SubscribeForm({
  newsletters,
  attribution,
  onSubscribed,
  title = 'Subscribe',
  formId,
  initialEmail,
}: {
  newsletters: SubscribeTarget[]
  attribution?: SubscriptionAttribution
  onSubscribed?: (result: SubscribeResult) => void
  title?: string
  /** Lets a control outside the form (the phone's sticky bar) submit it. */
  formId?: string
  /** An address the link already carried (`?email=` from the publisher's newsletter): filled in, not sent. */
  initialEmail?: string | null
}) {
  const id = useId()
  // The subscribe call, downloaded when the form is first used (see loadSubscribeApi).
  const mutation = useMutation({
    mutationFn: async (variables: SubscribeVariables) => (await loadSubscribeApi()).subscribe(variables),
  })
  const [done, setDone] = useState<{ email: string; result: SubscribeResult } | null>(null)
  const form = useFormFields({ initial: { email: '' }, ...subscribeRules })
  const emailError = form.errors.email
  // The first empty submit only takes the visitor to the field; a second one says what is missing.
  const [nudged, setNudged] = useState(false)
  const { setValue } = form
  // After hydration (the prerendered form is empty): the reader's tap is what subscribes, never the page load.
  useEffect(() => {
    if (initialEmail) setValue('email', initialEmail)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [initialEmail])

  const onSubmit = form.handleSubmit(async ({ email }) => {
    if (newsletters.length === 0) return
    try {
      const result = await mutation.mutateAsync({
        email,
        campaignIds: newsletters.map((n) => n.id),
        ...(attribution ?? readSubscriptionAttribution()),
      })
      addSubscribedNewsletters(newsletters.map((n) => n.id))
      setDone({ email, result })
      form.reset()
      toast.success('Check your inbox', { description: `We sent an email to ${email}.` })
      onSubscribed?.(result)
    } catch (error) {
      const message = error instanceof Error ? error.message : 'Please try again later'
      form.setError('email', message)
      toast.error(`Failed to subscribe: ${message}`)
    }
  })

  return (
    <div className="flex flex-col gap-4 rounded-lg border bg-card p-5 shadow-sm" data-testid="subscribe-panel">
      <h2 className="text-lg font-semibold">{title}</h2>
      {done && (
        <div
          role="status"
          className="flex gap-2 rounded-md bg-green-50 p-3 text-sm text-green-900"
          data-testid="subscribe-success"
        >
          <MailCheckIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <div className="flex flex-col gap-1">
            <p>
              Check your inbox: we sent one email to <strong>{done.email}</strong> about {names(done.result.pending)}.{' '}
              {done.result.pending.length > 1
                ? // The words of the email's own button (supabase/functions/subscribe/confirmation-email.ts).
                  `Tap “Confirm all ${done.result.pending.length} newsletters” in it, or “Confirm only this one” beside each you want.`
                : 'Tap “Confirm subscription” in it to start.'}
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
      <form
        id={formId}
        noValidate
        onSubmit={(e) => {
          // Nothing typed yet: take the visitor to the field rather than scold them (issue 38); a typed address that
          // is wrong is still refused with the rule's sentence.
          if (!form.values.email.trim() && !form.submitted && !nudged) {
            e.preventDefault()
            setNudged(true)
            document.getElementById(`${id}-email`)?.focus()
            return
          }
          void onSubmit(e)
        }}
        className="flex flex-col gap-3"
      >
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-email`}>Email address</Label>
          <Input
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            {...form.fieldProps('email', `${id}-email`)}
            aria-invalid={Boolean(emailError)}
            onFocus={() => void loadSubscribeApi().catch(() => undefined)}
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
