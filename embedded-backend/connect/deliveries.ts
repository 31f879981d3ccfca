/**
 * The Connect stand-in's webhook sender: events built as Stripe builds them (`object: 'event'`, `account` on events
 * about a connected account, `data.previous_attributes` on `*.updated`), signed with STRIPE_CONNECT_WEBHOOK_SECRET
 * exactly as Stripe signs (`Stripe-Signature: t=…,v1=…`, made by the stripe package's own helper, a fresh timestamp
 * per attempt), saved with the object they report before the first attempt, and retried with growing delays until
 * the webhook answers 2xx: the loop the test checkout uses too (checkout/webhook-sender.ts).
 */
import { randomBytes } from 'node:crypto'
import { createWebhookSender, loadStripe } from '../checkout/webhook-sender'
import { memoryStore, type ConnectStore, type StoredDelivery, type StoredObject } from './store'

export type DeliveryOptions = {
  webhookUrl: string
  webhookSecret: string
  /** Waits between attempts; Stripe's own span days, these keep local retries brief. */
  retryDelaysMs?: number[]
  log: (line: string) => void
  store?: ConnectStore
}

export const stripeId = (prefix: string) => `${prefix}_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x')}`

export function createDeliveries(options: DeliveryOptions) {
  const store = options.store ?? memoryStore()
  const sender = createWebhookSender<StoredDelivery>({
    webhookUrl: options.webhookUrl,
    webhookSecret: options.webhookSecret,
    retryDelaysMs: options.retryDelaysMs,
    log: options.log,
    save: (delivery) => store.save([], delivery),
    label: (d) => `${d.type} ${d.eventId} for ${d.objectId}`,
  })

  return {
    /**
     * Saves the objects with the event that reports the change (one transaction), then makes the first attempt.
     * `wait`: answer after that attempt (a browser leaving the onboarding page should find the webhook done);
     * otherwise the attempt runs in the background (an API caller must not wait on its own webhook).
     */
    async send(
      objects: StoredObject[],
      type: string,
      object: { id: string },
      extra: { account?: string; previousAttributes?: Record<string, unknown>; idempotencyKey?: string | null },
      wait: boolean,
    ): Promise<void> {
      const StripePackage = await loadStripe()
      const id = stripeId('evt')
      const payload = JSON.stringify(
        {
          id,
          object: 'event',
          ...(extra.account ? { account: extra.account } : {}),
          api_version: StripePackage.API_VERSION,
          created: Math.floor(Date.now() / 1000),
          data: {
            object: structuredClone(object),
            ...(extra.previousAttributes ? { previous_attributes: extra.previousAttributes } : {}),
          },
          livemode: false,
          pending_webhooks: 1,
          // Stripe names the API request behind an event; the page's buttons are no API request.
          request: {
            id: extra.idempotencyKey ? `req_local_${id.slice(4)}` : null,
            idempotency_key: extra.idempotencyKey ?? null,
          },
          type,
        },
        null,
        2,
      )
      const delivery: StoredDelivery = {
        eventId: id,
        type,
        objectId: object.id,
        payload,
        attempts: 0,
        nextAttemptAt: Date.now(),
        state: 'pending',
      }
      await store.save(objects, delivery)
      const first = sender.attempt(delivery).catch((error: unknown) => {
        options.log(`${type} ${id}: ${String(error)}`)
        return false
      })
      if (wait) await first
    },

    /** Deliveries owed before the last stop resume at their due time (at once if it passed meanwhile). */
    resume: (deliveries: StoredDelivery[]) => sender.resume(deliveries),

    /** Stops the timers; what is owed stays saved for the next start. */
    close: () => sender.close(),
  }
}
