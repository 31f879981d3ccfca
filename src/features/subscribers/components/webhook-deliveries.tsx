/** One endpoint's delivery log: event, status, attempts, response code or error, and a resend button. */
import { Button } from '@/components/ui/button'
import { QueryError } from '@/components/query-error'
import { formatDateTime } from '@/lib/format'
import { useWebhookDeliveriesQuery } from '../api/webhook-deliveries-query'
import { useWebhookResendMutation } from '../api/webhook-resend-mutation'

const STATUS: Record<string, string> = {
  pending: 'Waiting to retry',
  sending: 'Sending',
  succeeded: 'Delivered',
  failed: 'Gave up',
}

export function WebhookDeliveries({ endpointId }: { endpointId: string }) {
  const deliveries = useWebhookDeliveriesQuery(endpointId)
  const resend = useWebhookResendMutation(endpointId)
  if (deliveries.isPending) return <p className="text-sm text-muted-foreground">Loading deliveries…</p>
  if (deliveries.isError)
    return (
      <QueryError
        title="Could not load deliveries"
        error={deliveries.error}
        onRetry={() => void deliveries.refetch()}
      />
    )
  if (deliveries.data.length === 0)
    return (
      <p className="text-sm text-muted-foreground">
        No deliveries yet. Send a test event, or wait for a subscriber to confirm.
      </p>
    )
  return (
    <ul className="divide-y text-sm" data-testid="webhook-deliveries">
      {deliveries.data.map((d) => (
        <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
          <div>
            <span className="font-mono">{d.event_type}</span> · {formatDateTime(d.created_at)}
            <span className="block text-xs text-muted-foreground">
              {d.status === 'pending' && d.attempts === 0 ? 'Queued' : (STATUS[d.status] ?? d.status)}
              {d.response_status !== null && ` · HTTP ${d.response_status}`}
              {d.attempts > 0 && ` · ${d.attempts} attempt${d.attempts === 1 ? '' : 's'}`}
              {d.status === 'pending' && d.attempts > 0 && ` · next ${formatDateTime(d.next_attempt_at)}`}
              {d.last_error && ` · ${d.last_error}`}
            </span>
          </div>
          {(d.status === 'succeeded' || d.status === 'failed') && (
            <Button size="sm" variant="outline" disabled={resend.isPending} onClick={() => resend.mutate(d.id)}>
              Resend
            </Button>
          )}
        </li>
      ))}
    </ul>
  )
}
