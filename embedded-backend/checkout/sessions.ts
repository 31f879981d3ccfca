/**
 * The local stand-in for Stripe Checkout's sessions: created through Stripe's own API shape (the stripe
 * package posts form-encoded params to /v1/checkout/sessions), paid or left to expire on the test page,
 * and reported to the payments webhook as Stripe reports them: an event signed with the webhook secret
 * (`Stripe-Signature: t=…,v1=…`, made by the stripe package's own test helper), re-signed and retried with
 * growing delays until the webhook answers 2xx. Sessions and the deliveries still owed are saved (store.ts) and
 * come back when the backend starts again, as Stripe would not forget them either.
 */
import { randomBytes } from 'node:crypto'
import { createWebhookSender, loadStripe } from './webhook-sender'
import { memoryStore, type CheckoutStore, type LocalSession, type StoredDelivery, type StoredSession } from './store'

/** A request Stripe would refuse: answered as Stripe's invalid_request_error, which the package throws. */
export class CheckoutRequestError extends Error {
  constructor(
    message: string,
    readonly param?: string,
  ) {
    super(message)
  }
}

export type CheckoutSessionsOptions = {
  /** Where the checkout page is served, e.g. http://127.0.0.1:54321/checkout */
  pageBaseUrl: string
  webhookUrl: string
  webhookSecret: string
  /** Waits between delivery attempts; Stripe's own span hours, these keep local retries brief. */
  retryDelaysMs?: number[]
  log?: (line: string) => void
  /** Where sessions and owed deliveries are kept across restarts; in memory when not given (unit tests). */
  store?: CheckoutStore
}

const MIN_LIFETIME_S = 30 * 60
const MAX_LIFETIME_S = 24 * 60 * 60

const stripeId = (prefix: string) => `${prefix}_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x')}`
const nowSeconds = () => Math.floor(Date.now() / 1000)

function requiredUrl(params: URLSearchParams, name: string): string {
  const value = params.get(name)
  if (!value) throw new CheckoutRequestError(`Missing required param: ${name}.`, name)
  try {
    new URL(value.replace('{CHECKOUT_SESSION_ID}', 'x'))
  } catch {
    throw new CheckoutRequestError(`Not a valid URL: ${name}.`, name)
  }
  return value
}

/** The event for a session's new state, saved with it before the first attempt: a crash cannot lose it. */
async function eventFor(type: string, session: LocalSession): Promise<StoredDelivery> {
  const Stripe = await loadStripe()
  const id = stripeId('evt')
  const payload = JSON.stringify(
    {
      id,
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: nowSeconds(),
      data: { object: { ...session } },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    },
    null,
    2,
  )
  return {
    eventId: id,
    type,
    sessionId: session.id,
    payload,
    attempts: 0,
    nextAttemptAt: Date.now(),
    state: 'pending',
  }
}

/** A new open session from Stripe's form-encoded params, refused as Stripe refuses what it does not take. */
function sessionFromParams(
  params: URLSearchParams,
  pageBaseUrl: string,
): { session: LocalSession; productName: string } {
  if (params.get('mode') !== 'payment')
    throw new CheckoutRequestError('The local checkout supports mode=payment only.', 'mode')
  const currency = params.get('line_items[0][price_data][currency]')
  const unitAmount = Number(params.get('line_items[0][price_data][unit_amount]'))
  const quantity = Number(params.get('line_items[0][quantity]') ?? '1')
  if (!currency)
    throw new CheckoutRequestError('Missing required param: line_items[0][price_data][currency].', 'line_items')
  if (!Number.isInteger(unitAmount) || unitAmount < 50 || !Number.isInteger(quantity) || quantity < 1) {
    throw new CheckoutRequestError(
      'The Checkout Session total must be at least 50 cents, in whole cents.',
      'line_items',
    )
  }
  const created = nowSeconds()
  const expiresAt = params.has('expires_at') ? Number(params.get('expires_at')) : created + MAX_LIFETIME_S
  if (
    !Number.isInteger(expiresAt) ||
    expiresAt < created + MIN_LIFETIME_S - 60 ||
    expiresAt > created + MAX_LIFETIME_S + 60
  ) {
    throw new CheckoutRequestError('expires_at must be between 30 minutes and 24 hours from now.', 'expires_at')
  }
  const metadata: Record<string, string> = {}
  for (const [key, value] of params) {
    const m = /^metadata\[(.+)\]$/.exec(key)
    if (m) metadata[m[1]!] = value
  }
  const id = `cs_test_${randomBytes(30).toString('base64url').replace(/[-_]/g, 'a')}`
  const email = params.get('customer_email')
  const session: LocalSession = {
    id,
    object: 'checkout.session',
    mode: 'payment',
    status: 'open',
    payment_status: 'unpaid',
    amount_subtotal: unitAmount * quantity,
    amount_total: unitAmount * quantity,
    currency: currency.toLowerCase(),
    client_reference_id: params.get('client_reference_id'),
    customer_email: email,
    customer_details: null,
    metadata,
    payment_intent: null,
    success_url: requiredUrl(params, 'success_url'),
    cancel_url: requiredUrl(params, 'cancel_url'),
    url: `${pageBaseUrl}/${id}`,
    created,
    expires_at: expiresAt,
    livemode: false,
  }
  return { session, productName: params.get('line_items[0][price_data][product_data][name]') ?? 'Payment' }
}

export function createCheckoutSessions(options: CheckoutSessionsOptions) {
  const store = options.store ?? memoryStore()
  const sessions = new Map<string, LocalSession>()
  // What the page shows about the purchase; not part of Stripe's session object, so kept beside it.
  const productNames = new Map<string, string>()
  const byIdempotencyKey = new Map<string, LocalSession>()
  const log = options.log ?? ((line: string) => process.stderr.write(`[checkout] ${line}\n`))
  const sender = createWebhookSender<StoredDelivery>({
    webhookUrl: options.webhookUrl,
    webhookSecret: options.webhookSecret,
    retryDelaysMs: options.retryDelaysMs,
    log,
    save: (delivery) => store.save(null, delivery),
    label: (d) => `${d.type} ${d.eventId} for ${d.sessionId}`,
  })
  const later = sender.later

  const stored = (session: LocalSession, idempotencyKey: string | null = null): StoredSession => ({
    session,
    productName: productNames.get(session.id) ?? 'Payment',
    idempotencyKey,
  })

  /** Saves the session with the event it owes, then makes the first attempt (later ones run in the background). */
  async function settle(type: string, session: LocalSession): Promise<boolean> {
    const delivery = await eventFor(type, session)
    await store.save(stored(session), delivery)
    return sender.attempt(delivery)
  }

  async function expire(id: string) {
    const session = sessions.get(id)
    if (!session || session.status !== 'open') return
    session.status = 'expired'
    session.url = null
    await settle('checkout.session.expired', session)
  }

  const expireLater = (session: LocalSession) =>
    later(Math.max(0, session.expires_at * 1000 - Date.now()), () => void expire(session.id).catch(() => {}))

  return {
    /**
     * What was saved before the last stop: sessions come back, open ones expire on time, and every delivery
     * still owed resumes at its due time (at once if that passed while the backend was down).
     */
    async resume(): Promise<void> {
      const saved = await store.load()
      for (const { session, productName, idempotencyKey } of saved.sessions) {
        sessions.set(session.id, session)
        productNames.set(session.id, productName)
        if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, session)
        if (session.status === 'open') expireLater(session)
      }
      sender.resume(saved.deliveries)
    },

    /** POST /v1/checkout/sessions with Stripe's form-encoded params. Answers once the session is saved. */
    async create(params: URLSearchParams, idempotencyKey?: string): Promise<LocalSession> {
      if (idempotencyKey && byIdempotencyKey.has(idempotencyKey)) return byIdempotencyKey.get(idempotencyKey)!
      const { session, productName } = sessionFromParams(params, options.pageBaseUrl)
      const id = session.id
      sessions.set(id, session)
      productNames.set(id, productName)
      if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, session)
      await store.save(stored(session, idempotencyKey ?? null))
      expireLater(session)
      return session
    },

    get: (id: string) => sessions.get(id),
    productName: (id: string) => productNames.get(id) ?? 'Payment',

    /** The test card was charged: complete the session and tell the webhook (first attempt awaited). */
    async pay(id: string): Promise<LocalSession | undefined> {
      const session = sessions.get(id)
      if (!session || session.status !== 'open') return session
      session.status = 'complete'
      session.payment_status = 'paid'
      session.payment_intent = stripeId('pi')
      session.customer_details = { email: session.customer_email }
      session.url = null
      await settle('checkout.session.completed', session)
      return session
    },

    /** Sends the expiry now instead of at expires_at (tests). */
    expire,

    /** Stops the timers; what is owed stays saved for the next start. */
    close: () => sender.close(),
  }
}

export type CheckoutSessions = ReturnType<typeof createCheckoutSessions>

/** The success_url with Stripe's template variable filled in. */
export const successUrlOf = (session: LocalSession) =>
  session.success_url.replace('{CHECKOUT_SESSION_ID}', encodeURIComponent(session.id))
