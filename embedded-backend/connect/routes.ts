/**
 * The Connect stand-in's routes: Stripe's API under /v1 (a table of small handlers, `Bearer sk_test_…` only) and
 * the onboarding page under /connect. index.ts mounts them under the checkout's /checkout prefix.
 */
import type { ApiRequest, ApiResponse } from '../context'
import type { Connect } from './connect'
import { closedPage, onboardingPage } from './page'
import { StripeRequestError, type LocalLink } from './stripe-objects'

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

/** Stripe's API paths the stand-in knows; ids are Stripe's (`acct_…`, `tr_…`), so nothing needs decoding. */
export const API_PATH = /^\/v1\/(accounts|account_links|transfers)(?:\/([^/]+)(?:\/([a-z_]+))?)?\/?$/
/** The onboarding page of one link, and its two buttons. */
export const PAGE_PATH = /^\/connect\/(acct_[A-Za-z0-9]+)\/([A-Za-z0-9_-]+)(?:\/(finish|reject))?\/?$/

type ApiCall = { req: ApiRequest; id: string; params: URLSearchParams; key: string | undefined }
type ApiEntry = {
  method: 'GET' | 'POST'
  pattern: RegExp
  route: (connect: Connect, call: ApiCall) => ApiResponse | Promise<ApiResponse>
}

/** A create's answer; a replay of an idempotent request says so, as Stripe does. */
const made = ({ object, replayed }: { object: unknown; replayed: boolean }) =>
  stripeJson(200, object, replayed ? { 'idempotent-replayed': 'true' } : {})

const ID = '([^/]+)'
const apiTable: ApiEntry[] = [
  {
    method: 'POST',
    pattern: /^\/v1\/accounts\/?$/,
    route: async (c, { params, key }) => made(await c.createAccount(params, key)),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/accounts/${ID}/?$`),
    route: (c, { id }) => stripeJson(200, c.getAccount(id)),
  },
  {
    method: 'POST',
    pattern: /^\/v1\/account_links\/?$/,
    route: async (c, { params }) => stripeJson(200, await c.createAccountLink(params)),
  },
  {
    method: 'POST',
    pattern: /^\/v1\/transfers\/?$/,
    route: async (c, { params, key }) => made(await c.createTransfer(params, key)),
  },
  {
    method: 'GET',
    pattern: /^\/v1\/transfers\/?$/,
    route: (c, { req }) => stripeJson(200, c.listTransfers(req.query)),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/transfers/${ID}/?$`),
    route: (c, { id }) => stripeJson(200, c.getTransfer(id)),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/v1/transfers/${ID}/reversals/?$`),
    route: async (c, { id, params, key }) => made(await c.createReversal(id, params, key)),
  },
]

/** Stripe's API: test-mode keys only; Stripe's errors as Stripe answers them. */
export async function api(connect: Connect, req: ApiRequest): Promise<ApiResponse> {
  // The stripe package authenticates with `Bearer sk_…`; only test-mode keys make sense here.
  if (!/^Bearer sk_test_\S+$/.test(req.headers.authorization ?? '')) {
    return stripeJson(401, {
      error: {
        type: 'invalid_request_error',
        message: 'Invalid API Key provided. The local Connect stand-in accepts test-mode secret keys (sk_test_…) only.',
      },
    })
  }
  const params = new URLSearchParams(req.body.toString('utf8'))
  const key = req.headers['idempotency-key']
  for (const entry of apiTable) {
    const match = entry.method === req.method ? entry.pattern.exec(req.path) : null
    if (!match) continue
    try {
      return await entry.route(connect, { req, id: match[1] ?? '', params, key })
    } catch (error) {
      if (error instanceof StripeRequestError) return stripeJson(error.status, { error: error.error })
      throw error
    }
  }
  return unrecognized(req)
}

/** A first visit opens the onboarding session; an expired, already visited or finished link goes to refresh_url. */
async function showPage(connect: Connect, req: ApiRequest, link: LocalLink, base: string): Promise<ApiResponse> {
  // Stripe sends an expired, already visited or finished link to refresh_url, where the platform makes a new one.
  const session = await connect.open(link, cookieOf(req))
  if (!session) return redirect(link.refresh_url)
  return html(200, onboardingPage(connect.getAccount(link.account), base, link.return_url), {
    'set-cookie': `${COOKIE}=${session}; Path=${base}; HttpOnly; SameSite=Lax`,
  })
}

/** "Finish onboarding" or "Simulate a rejected account": only the browser that opened the link, once. */
async function pressButton(
  connect: Connect,
  req: ApiRequest,
  link: LocalLink,
  base: string,
  action: string,
): Promise<ApiResponse> {
  if (link.state !== 'visited' || !link.session || cookieOf(req) !== link.session) return redirect(link.refresh_url)
  if (action === 'finish') await connect.finish(link, { ip: req.ip, userAgent: req.headers['user-agent'] ?? null })
  else await connect.reject(link)
  return redirect(link.return_url, { 'set-cookie': `${COOKIE}=; Path=${base}; Max-Age=0; HttpOnly; SameSite=Lax` })
}

/** The onboarding page of one link: GET shows it, POST …/finish or …/reject presses a button. */
export async function page(
  connect: Connect,
  req: ApiRequest,
  accountId: string,
  token: string,
  action: string | undefined,
): Promise<ApiResponse> {
  const link = connect.link(accountId, token)
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
  if (action === undefined && req.method === 'GET') return showPage(connect, req, link, base)
  if (action !== undefined && req.method === 'POST') return pressButton(connect, req, link, base, action)
  return html(405, closedPage('Not allowed', 'Use the buttons on the onboarding page.'))
}

/** Anything else under Connect's paths: Stripe's 404 under /v1, a closed page elsewhere. */
export function notFound(req: ApiRequest): ApiResponse {
  if (req.path.startsWith('/v1/')) {
    return stripeJson(404, {
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.path}).` },
    })
  }
  return html(404, closedPage('Not found', 'There is no onboarding page at this address.'))
}
