/**
 * `/checkout/…`: the local test checkout, playing Stripe's part when STRIPE_SECRET_KEY is unset.
 * - `POST /checkout/v1/checkout/sessions` (and `GET …/{id}`): Stripe's API for the stripe package the
 *   create-checkout-session function uses (its requests to /v1/… are sent here).
 * - `GET /checkout/{cs_…}`: the page the advertiser pays on; `POST …/pay` and `…/decline` are its buttons.
 * Like Stripe, it needs no Supabase apikey: the gateway routes it before the key check.
 */
import type { ApiRequest, ApiResponse, Handler } from '../context'
import { checkoutPage, closedPage, DECLINE_MESSAGE } from './page'
import {
  CheckoutRequestError,
  createCheckoutSessions,
  successUrlOf,
  type CheckoutSessions,
  type CheckoutSessionsOptions,
} from './sessions'
import { databaseStore } from './store'
import type { Db } from '../db/database'

/** The local webhook secret: public on purpose, like the local JWT secret; it protects nothing but this machine. */
export const LOCAL_STRIPE_WEBHOOK_SECRET = 'whsec_growletterLocalCheckoutSecretForDevelopmentOnly0'

export type CheckoutOptions = Pick<CheckoutSessionsOptions, 'retryDelaysMs' | 'log'> & {
  apiUrl: string
  webhookSecret: string
  /** The backend's database: sessions and owed webhook deliveries survive a restart there. */
  db?: Db
}

const html = (status: number, body: string): ApiResponse => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  body,
})
const stripeJson = (status: number, body: unknown): ApiResponse => ({
  status,
  headers: { 'content-type': 'application/json', 'request-id': `req_local_${Date.now()}` },
  body,
})
const invalidRequest = (status: number, message: string, param?: string) =>
  stripeJson(status, { error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } })

/** Stripe's Checkout Sessions API: create one, or read one back; test-mode keys only. */
async function api(sessions: CheckoutSessions, req: ApiRequest, rest: string): Promise<ApiResponse> {
  // The stripe package authenticates with `Bearer sk_…`; only test-mode keys make sense here.
  if (!/^Bearer sk_test_\S+$/.test(req.headers.authorization ?? '')) {
    return invalidRequest(
      401,
      'Invalid API Key provided. The local checkout accepts test-mode secret keys (sk_test_…) only.',
    )
  }
  if (rest === '' && req.method === 'POST') {
    try {
      const params = new URLSearchParams(req.body.toString('utf8'))
      return stripeJson(200, await sessions.create(params, req.headers['idempotency-key']))
    } catch (error) {
      if (error instanceof CheckoutRequestError) return invalidRequest(400, error.message, error.param)
      throw error
    }
  }
  const id = /^\/([^/]+)$/.exec(rest)?.[1]
  const session = id ? sessions.get(id) : undefined
  if (session && req.method === 'GET') return stripeJson(200, session)
  return invalidRequest(404, `No such checkout.session: '${id ?? ''}'`, 'id')
}

/** The page the advertiser pays on: GET shows it, POST …/pay or …/decline presses a button. */
async function page(
  sessions: CheckoutSessions,
  req: ApiRequest,
  id: string,
  action: string | undefined,
): Promise<ApiResponse> {
  const session = sessions.get(id)
  if (!session) {
    return html(
      404,
      closedPage(
        'Checkout not found',
        'This checkout session does not exist. Start the deposit again from your wallet.',
      ),
    )
  }
  if (action === 'pay' && req.method === 'POST') {
    const paid = await sessions.pay(id)
    if (paid?.status === 'complete') return { status: 303, headers: { location: successUrlOf(paid) } }
  }
  if (session.status === 'complete') {
    return html(
      200,
      closedPage('Payment complete', 'This checkout has already been paid.', {
        href: successUrlOf(session),
        label: 'Return to Growletter',
      }),
    )
  }
  if (session.status === 'expired') {
    return html(
      410,
      closedPage('Checkout expired', 'This checkout session has expired. Start the deposit again from your wallet.', {
        href: session.cancel_url,
        label: 'Return to Growletter',
      }),
    )
  }
  if (action === 'decline' && req.method === 'POST')
    return html(402, checkoutPage(session, sessions.productName(id), DECLINE_MESSAGE))
  if (action !== undefined || req.method !== 'GET')
    return html(405, closedPage('Not allowed', 'Use the buttons on the checkout page.'))
  return html(200, checkoutPage(session, sessions.productName(id)))
}

export function createCheckoutHandler(
  options: CheckoutOptions,
): Handler & { sessions: ReturnType<typeof createCheckoutSessions>; close(): Promise<void> } {
  let sessions: ReturnType<typeof createCheckoutSessions>
  const make = (store?: Awaited<ReturnType<typeof databaseStore>>) =>
    createCheckoutSessions({
      pageBaseUrl: `${options.apiUrl}/checkout`,
      webhookUrl: `${options.apiUrl}/functions/v1/payments-webhook`,
      webhookSecret: options.webhookSecret,
      retryDelaysMs: options.retryDelaysMs,
      log: options.log,
      store,
    })
  sessions = make()
  // With a database, the saved sessions and deliveries are loaded before any checkout request is answered.
  const ready: Promise<void> = options.db
    ? databaseStore(options.db).then(async (store) => {
        sessions = make(store)
        await sessions.resume()
      })
    : Promise.resolve()
  ready.catch((error: unknown) => console.error('[checkout] could not load saved sessions:', error))

  const handler: Handler = async (req) => {
    await ready
    const apiMatch = /^\/v1\/checkout\/sessions(\/.*)?$/.exec(req.path)
    if (apiMatch) return api(sessions, req, apiMatch[1] ?? '')
    const pageMatch = /^\/(cs_[A-Za-z0-9_]+)(?:\/(pay|decline))?\/?$/.exec(req.path)
    if (pageMatch) return page(sessions, req, pageMatch[1]!, pageMatch[2])
    return html(404, closedPage('Not found', 'There is no checkout page at this address.'))
  }

  return Object.assign(handler, {
    get sessions() {
      return sessions
    },
    close: () => sessions.close(),
  })
}
