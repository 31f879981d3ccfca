/**
 * The local Stripe Connect stand-in, playing Stripe's part for publishers' payouts when STRIPE_SECRET_KEY is unset.
 * Routed under the local checkout's `/checkout` prefix (the stripe package in the functions sends every /v1/… request
 * to /checkout/v1/…, see supabase/functions/_shared/stripe.ts):
 * - `POST /checkout/v1/accounts`, `GET …/accounts/{acct_…}`, `POST /checkout/v1/account_links`,
 *   `POST /checkout/v1/transfers`, `GET …/transfers` (the list, as Stripe pages it), `GET …/transfers/{tr_…}`,
 *   `POST …/transfers/{tr_…}/reversals`: Stripe's API, `Bearer sk_test_…` only.
 * - `GET /checkout/connect/{acct_…}/{link}`: the onboarding page; `POST …/finish` and `…/reject` are its buttons.
 * Its events go to the `connect-webhook` function, signed with STRIPE_CONNECT_WEBHOOK_SECRET.
 */
import type { ApiRequest, ApiResponse, Handler } from '../context'
import type { Db } from '../db/database'
import { createConnect, StripeRequestError, type ConnectOptions, type LocalLink } from './connect'
import { closedPage, onboardingPage } from './page'
import { databaseStore } from './store'

/**
 * The local signing secret of Connect events: public on purpose, like the checkout's and the local JWT secret; it
 * protects nothing but this machine. Production sets Stripe's own (the Connect webhook endpoint's signing secret).
 */
export const LOCAL_STRIPE_CONNECT_WEBHOOK_SECRET = 'whsec_growletterLocalConnectSecretForDevelopmentOnly00'

/** STRIPE_CONNECT_WEBHOOK_SECRET from the environment when set, else the local one. */
export const connectWebhookSecret = (env: NodeJS.ProcessEnv = process.env) =>
  env.STRIPE_CONNECT_WEBHOOK_SECRET || LOCAL_STRIPE_CONNECT_WEBHOOK_SECRET

/** The paths below /checkout that are Connect's; the rest stay the checkout's. */
export const isConnectPath = (path: string) =>
  /^\/(v1\/(accounts|account_links|transfers)(\/|$)|connect(\/|$))/.test(path)

export type ConnectHandlerOptions = Pick<ConnectOptions, 'retryDelaysMs' | 'now'> & {
  apiUrl: string
  webhookSecret: string
  /** Where events go; default `${apiUrl}/functions/v1/connect-webhook`. */
  webhookUrl?: string
  log?: (line: string) => void
  /** The backend's database: accounts, links, transfers and owed deliveries survive a restart there. */
  db?: Db
}

const stripeJson = (status: number, body: unknown, headers: Record<string, string> = {}): ApiResponse => ({
  status,
  headers: { 'content-type': 'application/json', 'request-id': `req_local_${Date.now()}`, ...headers },
  body,
})
const html = (status: number, body: string, headers: Record<string, string> = {}): ApiResponse => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...headers },
  body,
})
const redirect = (location: string, headers: Record<string, string> = {}): ApiResponse => ({
  status: 303,
  headers: { location, 'cache-control': 'no-store', ...headers },
})

const unrecognized = (req: ApiRequest): ApiResponse =>
  stripeJson(404, {
    error: {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${req.method}: ${req.path}). The local Connect stand-in serves creating and retrieving accounts, account links and transfers, listing transfers and reversing one.`,
    },
  })

const COOKIE = 'growletter_connect_session'
const cookieOf = (req: ApiRequest) =>
  /(?:^|;\s*)growletter_connect_session=([A-Za-z0-9_-]+)/.exec(req.headers.cookie ?? '')?.[1]

/**
 * Accounts the product's database records as onboarded (public.payout_accounts, payouts enabled) that the stand-in
 * never made — the demo seed's, or any after its tables were rebuilt — become finished accounts here, so the demo
 * publisher is paid like one who onboarded on this machine. A database without the table (older migrations) has none.
 */
async function adoptOnboardedAccounts(db: Db, connect: ReturnType<typeof createConnect>) {
  const known = await db.query<{ exists: boolean }>(
    "select to_regclass('public.payout_accounts') is not null as exists",
  )
  if (!known.rows[0]?.exists) return
  const rows = await db.query<{ id: string; email: string | null }>(
    `select a.stripe_account_id as id, p.email::text as email
       from public.payout_accounts a left join public.profiles p on p.id = a.publisher_id
      where a.payouts_enabled`,
  )
  for (const row of rows.rows) await connect.adopt(row.id, row.email)
}

export function createConnectHandler(
  options: ConnectHandlerOptions,
): Handler & { connect: ReturnType<typeof createConnect>; close(): Promise<void> } {
  const log = options.log ?? ((line: string) => process.stderr.write(`[connect] ${line}\n`))
  const make = (store?: Awaited<ReturnType<typeof databaseStore>>) =>
    createConnect({
      pageBaseUrl: `${options.apiUrl}/checkout/connect`,
      webhookUrl: options.webhookUrl ?? `${options.apiUrl}/functions/v1/connect-webhook`,
      webhookSecret: options.webhookSecret,
      retryDelaysMs: options.retryDelaysMs,
      now: options.now,
      log,
      store,
    })
  let connect = make()
  // With a database, what was saved is loaded before any request is answered, and owed events resume.
  const ready: Promise<void> = options.db
    ? databaseStore(options.db).then(async (store) => {
        connect = make(store)
        await connect.resume()
        await adoptOnboardedAccounts(options.db!, connect)
      })
    : Promise.resolve()
  ready.catch((error: unknown) => console.error('[connect] could not load saved accounts:', error))

  async function api(
    req: ApiRequest,
    resource: string,
    id: string | undefined,
    sub: string | undefined,
  ): Promise<ApiResponse> {
    // The stripe package authenticates with `Bearer sk_…`; only test-mode keys make sense here.
    if (!/^Bearer sk_test_\S+$/.test(req.headers.authorization ?? '')) {
      return stripeJson(401, {
        error: {
          type: 'invalid_request_error',
          message:
            'Invalid API Key provided. The local Connect stand-in accepts test-mode secret keys (sk_test_…) only.',
        },
      })
    }
    const params = new URLSearchParams(req.body.toString('utf8'))
    const key = req.headers['idempotency-key']
    try {
      if (sub === 'reversals' && resource === 'transfers' && id !== undefined && req.method === 'POST') {
        const made = await connect.createReversal(id, params, key)
        return stripeJson(200, made.object, made.replayed ? { 'idempotent-replayed': 'true' } : {})
      }
      if (sub !== undefined) return unrecognized(req)
      if (req.method === 'GET' && id === undefined && resource === 'transfers') {
        return stripeJson(200, connect.listTransfers(req.query))
      }
      if (req.method === 'POST' && id === undefined) {
        if (resource === 'account_links') return stripeJson(200, await connect.createAccountLink(params))
        const made =
          resource === 'accounts' ? await connect.createAccount(params, key) : await connect.createTransfer(params, key)
        return stripeJson(200, made.object, made.replayed ? { 'idempotent-replayed': 'true' } : {})
      }
      if (req.method === 'GET' && id !== undefined && resource !== 'account_links') {
        return stripeJson(200, resource === 'accounts' ? connect.getAccount(id) : connect.getTransfer(id))
      }
      return unrecognized(req)
    } catch (error) {
      if (error instanceof StripeRequestError) return stripeJson(error.status, { error: error.error })
      throw error
    }
  }

  async function page(
    req: ApiRequest,
    accountId: string,
    token: string,
    action: string | undefined,
  ): Promise<ApiResponse> {
    const link: LocalLink | undefined = connect.link(accountId, token)
    if (!link) {
      return html(
        404,
        closedPage(
          'Onboarding link not found',
          'This onboarding link does not exist. Start setting up payouts again from Growletter.',
        ),
      )
    }
    const base = `/checkout/connect/${encodeURIComponent(accountId)}/${encodeURIComponent(token)}`
    if (action === undefined && req.method === 'GET') {
      // Stripe sends an expired, already visited or finished link to refresh_url, where the platform makes a new one.
      const session = await connect.open(link, cookieOf(req))
      if (!session) return redirect(link.refresh_url)
      return html(200, onboardingPage(connect.getAccount(accountId), base, link.return_url), {
        'set-cookie': `${COOKIE}=${session}; Path=${base}; HttpOnly; SameSite=Lax`,
      })
    }
    if (action !== undefined && req.method === 'POST') {
      // Only the browser that opened the link may finish it, once.
      if (link.state !== 'visited' || !link.session || cookieOf(req) !== link.session) return redirect(link.refresh_url)
      if (action === 'finish') await connect.finish(link, { ip: req.ip, userAgent: req.headers['user-agent'] ?? null })
      else await connect.reject(link)
      return redirect(link.return_url, { 'set-cookie': `${COOKIE}=; Path=${base}; Max-Age=0; HttpOnly; SameSite=Lax` })
    }
    return html(405, closedPage('Not allowed', 'Use the buttons on the onboarding page.'))
  }

  const handler: Handler = async (req) => {
    await ready
    // Ids are Stripe's (`acct_…`, `tr_…`): letters, digits and underscores, so nothing needs decoding.
    const apiMatch = /^\/v1\/(accounts|account_links|transfers)(?:\/([^/]+)(?:\/([a-z_]+))?)?\/?$/.exec(req.path)
    if (apiMatch) return api(req, apiMatch[1]!, apiMatch[2], apiMatch[3])
    const pageMatch = /^\/connect\/(acct_[A-Za-z0-9]+)\/([A-Za-z0-9_-]+)(?:\/(finish|reject))?\/?$/.exec(req.path)
    if (pageMatch) return page(req, pageMatch[1]!, pageMatch[2]!, pageMatch[3])
    if (req.path.startsWith('/v1/')) {
      return stripeJson(404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.path}).` },
      })
    }
    return html(404, closedPage('Not found', 'There is no onboarding page at this address.'))
  }

  return Object.assign(handler, {
    get connect() {
      return connect
    },
    close: () => connect.close(),
  })
}

/** One handler for the /checkout prefix: Connect's paths to the stand-in, everything else to the test checkout. */
export const withConnect =
  (checkout: Handler, connect: Handler): Handler =>
  (req) =>
    isConnectPath(req.path) ? connect(req) : checkout(req)
