/**
 * How the local Stripe stand-ins (the test checkout and Connect) deliver an event, as Stripe does: signed with the
 * webhook secret (`Stripe-Signature: t=…,v1=…`, made by the stripe package's own helper, a fresh timestamp per
 * attempt), retried with growing delays until the webhook answers 2xx, each attempt's outcome saved through the
 * caller's store so a restart resumes what is still owed. One loop for both stand-ins; each keeps its own store.
 */
import type Stripe from 'stripe'

// The stripe package takes ~0.3 s of CPU to load; only delivering an event needs it, so it loads then.
let stripePackage: Promise<typeof Stripe> | undefined
export const loadStripe = () => (stripePackage ??= import('stripe').then((m) => m.default))

const DEFAULT_RETRY_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000]

/** What an event owed to the webhook needs for sending; stores add what their log names (a session, an object). */
export type OwedEvent = {
  eventId: string
  type: string
  /** The event exactly as first sent: every retry sends the same body, signed anew. */
  payload: string
  /** Attempts made so far. */
  attempts: number
  /** When the next attempt is due (epoch ms). */
  nextAttemptAt: number
  state: 'pending' | 'delivered' | 'gave_up'
}

export type WebhookSenderOptions<D extends OwedEvent> = {
  webhookUrl: string
  webhookSecret: string
  /** Waits between attempts; Stripe's own span days, these keep local retries brief. */
  retryDelaysMs?: number[]
  log: (line: string) => void
  /** Saves the event's new state (delivered, given up, or its next due time). */
  save: (delivery: D) => Promise<void>
  /** How the log names an event, e.g. `checkout.session.completed evt_… for cs_…`. */
  label: (delivery: D) => string
}

export function createWebhookSender<D extends OwedEvent>(options: WebhookSenderOptions<D>) {
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS
  const timers = new Set<NodeJS.Timeout>()
  const inFlight = new Set<Promise<boolean>>()
  let closed = false

  /** Runs `fn` after `ms` unless the sender was closed first; never keeps the process alive. */
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

  /** One attempt, tracked until its outcome is saved (close waits for it). */
  function attempt(delivery: D): Promise<boolean> {
    const running = attemptOnce(delivery)
    inFlight.add(running)
    void running.finally(() => inFlight.delete(running)).catch(() => undefined)
    return running
  }

  /** One attempt; on failure the next is saved and scheduled, until the last delay has passed. */
  async function attemptOnce(delivery: D): Promise<boolean> {
    const status = await postOnce(delivery.payload)
    const made = delivery.attempts + 1
    const label = options.label(delivery)
    if (status >= 200 && status < 300) {
      await options.save({ ...delivery, attempts: made, state: 'delivered' })
      return true
    }
    if (made > retryDelays.length) {
      options.log(`${label}: gave up after ${made} attempts (last status ${status || 'no answer'})`)
      await options.save({ ...delivery, attempts: made, state: 'gave_up' })
      return false
    }
    const delay = retryDelays[made - 1]!
    const next: D = { ...delivery, attempts: made, nextAttemptAt: Date.now() + delay }
    await options.save(next)
    options.log(`${label}: webhook answered ${status || 'nothing'}; retrying in ${delay} ms`)
    later(delay, () => void attempt(next).catch((error: unknown) => options.log(`${label}: ${String(error)}`)))
    return false
  }

  return {
    attempt,
    later,
    /** Events owed before the last stop resume at their due time (at once if it passed meanwhile). */
    resume(deliveries: D[]) {
      for (const delivery of deliveries) {
        later(Math.max(0, delivery.nextAttemptAt - Date.now()), () => void attempt(delivery).catch(() => {}))
      }
    },
    /**
     * Stops the timers and waits for the attempts in flight to save their outcome, so that nothing this sender
     * writes lands after it closed (a restart's new sender, or the closing database, would otherwise meet a late
     * "retry in a minute" over a delivery the next start has already made). What is owed stays saved for the next start.
     */
    async close() {
      closed = true
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      await Promise.allSettled([...inFlight])
    },
  }
}
