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
import type { Handler } from '../context'
import type { Db } from '../db/database'
import { createConnect } from './connect'
import type { ConnectOptions } from './state'
import { api, API_PATH, notFound, page, PAGE_PATH } from './routes'
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

  const handler: Handler = async (req) => {
    await ready
    if (API_PATH.test(req.path)) return api(connect, req)
    const pageMatch = PAGE_PATH.exec(req.path)
    if (pageMatch) return page(connect, req, pageMatch[1]!, pageMatch[2]!, pageMatch[3])
    return notFound(req)
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
