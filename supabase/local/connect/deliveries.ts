/**
 * The Connect stand-in's webhook sender: events built as Stripe builds them (`object: 'event'`, `account` on events
 * about a connected account, `data.previous_attributes` on `*.updated`), signed with STRIPE_CONNECT_WEBHOOK_SECRET
 * exactly as Stripe signs (`Stripe-Signature: t=…,v1=…`, made by the stripe package's own helper, a fresh timestamp
 * per attempt), saved with the object they report before the first attempt, and retried with growing delays until
 * the webhook answers 2xx. It follows checkout/sessions.ts, which keeps its own copy of the same loop (that file was
 * changed on main today; the two can share this module once both have landed).
 */
import { randomBytes } from 'node:crypto'
import type Stripe from 'stripe'
import { memoryStore, type ConnectStore, type StoredDelivery, type StoredObject } from './store'

// The stripe package takes ~0.3 s of CPU to load; only delivering an event needs it, so it loads then.
let stripePackage: Promise<typeof Stripe> | undefined
const loadStripe = () => (stripePackage ??= import('stripe').then((m) => m.default))

export const DEFAULT_RETRY_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000]

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
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS
  const timers = new Set<NodeJS.Timeout>()
  let closed = false

  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer)
      if (!closed) fn()
    }, ms)
    timer.unref()
    timers.add(timer)
  }

  async function postOnce(payload: string): Promise<number> {
    const StripePackage = await loadStripe()
    const signature = StripePackage.webhooks.generateTestHeaderString({ payload, secret: options.webhookSecret })
    try {
      const res = await fetch(options.webhookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signature,
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        },
        body: payload,
        signal: AbortSignal.timeout(20_000),
      })
      await res.arrayBuffer()
      return res.status
    } catch {
      return 0
    }
  }

  /** One attempt; on failure the next is saved and scheduled, until the last delay has passed. */
  async function attempt(delivery: StoredDelivery): Promise<boolean> {
    const status = await postOnce(delivery.payload)
    const made = delivery.attempts + 1
    const label = `${delivery.type} ${delivery.eventId} for ${delivery.objectId}`
    if (status >= 200 && status < 300) {
      await store.save([], { ...delivery, attempts: made, state: 'delivered' })
      return true
    }
    if (made > retryDelays.length) {
      options.log(`${label}: gave up after ${made} attempts (last status ${status || 'no answer'})`)
      await store.save([], { ...delivery, attempts: made, state: 'gave_up' })
      return false
    }
    const delay = retryDelays[made - 1]!
    const next: StoredDelivery = { ...delivery, attempts: made, nextAttemptAt: Date.now() + delay }
    await store.save([], next)
    options.log(`${label}: webhook answered ${status || 'nothing'}; retrying in ${delay} ms`)
    later(delay, () => void attempt(next).catch((error: unknown) => options.log(`${label}: ${String(error)}`)))
    return false
  }

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
      const first = attempt(delivery).catch((error: unknown) => {
        options.log(`${type} ${id}: ${String(error)}`)
        return false
      })
      if (wait) await first
    },

    /** Deliveries owed before the last stop resume at their due time (at once if it passed meanwhile). */
    resume(deliveries: StoredDelivery[]) {
      for (const delivery of deliveries) {
        later(Math.max(0, delivery.nextAttemptAt - Date.now()), () => void attempt(delivery).catch(() => {}))
      }
    },

    /** Stops the timers; what is owed stays saved for the next start. */
    close() {
      closed = true
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
    },
  }
}
