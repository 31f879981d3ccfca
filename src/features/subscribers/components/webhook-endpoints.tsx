/**
 * Webhooks: add an https endpoint (all newsletters or one), see its signing secret once, send a test event,
 * pause, delete, and read each endpoint's delivery log. Events: subscriber.confirmed, subscriber.refunded,
 * signed per Standard Webhooks (verify with the `standardwebhooks` package and the secret).
 */
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { QueryError } from '@/components/query-error'
import { useWebhookEndpointsQuery } from '../api/webhook-endpoints-query'
import {
  useWebhookEndpointCreateMutation,
  webhookEndpointSchema,
  type WebhookEndpointInput,
  type WebhookEndpointValues,
} from '../api/webhook-endpoint-create-mutation'
import { useWebhookEndpointUpdateMutation } from '../api/webhook-endpoint-update-mutation'
import { useWebhookTestMutation } from '../api/webhook-test-mutation'
import { WebhookDeliveries } from './webhook-deliveries'

type Campaign = { id: string; name: string }

export function WebhookEndpoints({ campaigns }: { campaigns: Campaign[] }) {
  const endpoints = useWebhookEndpointsQuery()
  const form = useForm<WebhookEndpointInput, unknown, WebhookEndpointValues>({
    resolver: zodResolver(webhookEndpointSchema),
    defaultValues: { url: '', campaignId: '' },
  })
  const error = form.formState.errors.url?.message
  const [secret, setSecret] = useState<string | null>(null)
  const create = useWebhookEndpointCreateMutation({
    onSuccess: (created) => {
      // The URL clears for the next endpoint; the newsletter choice stays, as before.
      form.resetField('url')
      setSecret(created.secret)
    },
    // The database's refusal (a private address, a bad newsletter) shows where the form's own checks do.
    onError: (e) => form.setError('url', { message: e.message }),
  })
  const update = useWebhookEndpointUpdateMutation()
  const test = useWebhookTestMutation()
  const names = new Map(campaigns.map((c) => [c.id, c.name]))

  const onSubmit = form.handleSubmit(({ url, campaignId }) => create.mutate({ url, campaignId: campaignId || null }))

  return (
    <div className="space-y-4">
      <form
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        className="grid gap-3 md:grid-cols-[1fr_16rem_auto] md:items-end"
        data-testid="webhook-form"
      >
        <div className="grid gap-1.5">
          <label htmlFor="webhook-url" className="text-sm font-medium">
            Endpoint URL
          </label>
          <Input
            id="webhook-url"
            {...form.register('url')}
            placeholder="https://example.com/webhooks/growletter"
            aria-invalid={!!error}
            aria-describedby={error ? 'webhook-url-error' : undefined}
          />
        </div>
        <div className="grid gap-1.5">
          <label htmlFor="webhook-campaign" className="text-sm font-medium">
            Newsletters
          </label>
          <select
            id="webhook-campaign"
            {...form.register('campaignId')}
            className="flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base md:text-sm"
          >
            <option value="">All my newsletters</option>
            {campaigns.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Adding…' : 'Add endpoint'}
        </Button>
        {error && (
          <p id="webhook-url-error" role="alert" className="text-sm text-destructive md:col-span-3">
            {error}
          </p>
        )}
      </form>

      {endpoints.isPending ? (
        <p className="text-sm text-muted-foreground">Loading endpoints…</p>
      ) : endpoints.isError ? (
        <QueryError
          title="Could not load webhook endpoints"
          error={endpoints.error}
          onRetry={() => void endpoints.refetch()}
        />
      ) : endpoints.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No endpoints yet. Add one to receive every confirmed subscriber within a minute.
        </p>
      ) : (
        <ul className="space-y-3" data-testid="webhook-endpoints">
          {endpoints.data.map((w) => (
            <li key={w.id} className="rounded-lg border p-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <div className="min-w-0">
                  <p className="font-mono text-sm break-all">{w.url}</p>
                  <p className="text-xs text-muted-foreground">
                    {w.campaign_id ? (names.get(w.campaign_id) ?? 'One newsletter') : 'All my newsletters'} ·{' '}
                    {w.enabled ? 'Active' : 'Paused'}
                  </p>
                </div>
                <div className="flex flex-wrap gap-2">
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={test.isPending || !w.enabled}
                    onClick={() => test.mutate(w.id)}
                  >
                    Send test event
                  </Button>
                  <Button size="sm" variant="outline" onClick={() => update.mutate({ id: w.id, enabled: !w.enabled })}>
                    {w.enabled ? 'Pause' : 'Resume'}
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => {
                      if (window.confirm('Delete this endpoint and its delivery log?'))
                        update.mutate({ id: w.id, remove: true })
                    }}
                  >
                    Delete
                  </Button>
                </div>
              </div>
              <details className="mt-2">
                <summary className="cursor-pointer text-sm">Deliveries</summary>
                <WebhookDeliveries endpointId={w.id} />
              </details>
            </li>
          ))}
        </ul>
      )}

      <Dialog
        open={secret !== null}
        onOpenChange={(open) => {
          if (!open) setSecret(null)
        }}
      >
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Your signing secret</DialogTitle>
            <DialogDescription>
              Copy it now: it is shown only once. Verify each webhook's signature with it (Standard Webhooks).
            </DialogDescription>
          </DialogHeader>
          <p className="rounded-md bg-muted p-3 font-mono text-sm break-all" data-testid="webhook-secret">
            {secret}
          </p>
          <DialogFooter>
            <Button variant="outline" onClick={() => void navigator.clipboard?.writeText(secret ?? '')}>
              Copy
            </Button>
            <Button onClick={() => setSecret(null)}>I saved it</Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  )
}
