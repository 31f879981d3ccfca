/**
 * `/esp/…`: the local ESP sandbox (issue 25), playing beehiiv, Kit, Mailchimp and MailerLite for development
 * and tests as the local checkout plays Stripe. The backend passes `ESP_*_API_URL` pointing here to the
 * functions (`espSandboxUrls`), so the ESP clients in supabase/functions/_shared/esp talk to it unchanged.
 * - `/esp/{provider}/{the provider's own path}`: the provider's API (beehiiv.ts, kit.ts, mailchimp.ts, mailerlite.ts; common.ts holds the demo keys and lists), each request recorded.
 * - `GET /esp/`: the page listing deliveries per provider, beside the mailbox.
 * - `POST /esp/_control/fail` `{ provider, status: 429|500|502|503, count, retryAfterSeconds?, after? }`: the next
 *   `count` requests to that provider (after the first `after`, say a list's first page) answer `status` (429 with
 *   Retry-After); `DELETE` clears.
 * - `POST /esp/_control/engagement` `{ provider, email, opens, clicks }`: what engagement read-back reports.
 * - `POST /esp/_engagement` `{ provider, email, opens, clicks, machine_opens, machine_clicks }` with the service-role
 *   or secret key (`apikey` or `Authorization: Bearer`): makes a reader open or click, as a person or as a machine
 *   (ARCHITECTURE "Wave 4 interfaces", engagement-verified pay). Each stand-in reports the tool's totals, machines
 *   included, as the real tool does.
 * - `GET /esp/_api/requests?provider=`, `GET /esp/_api/subscribers?provider=` (JSON, newest first);
 *   `DELETE /esp/_api/requests` forgets everything received.
 * Like the providers (and the checkout), it needs no Supabase apikey: the gateway routes it before the key check.
 */
import type { ApiRequest, ApiResponse, Handler } from '../context'
import type { Db } from '../db/database'
import { espPage } from './page'
import { mask, SANDBOX_BASE_PATHS, SANDBOX_PROVIDERS, type SandboxProvider } from './common'
import { forcedFailure, PROVIDER_HANDLERS } from './providers'
import { databaseEspStore, type EspStore } from './store'

/** The `ESP_*_API_URL` values that point the functions at this sandbox. */
export function espSandboxUrls(apiUrl: string): Record<string, string> {
  const url = (p: SandboxProvider) => `${apiUrl}/esp/${p}${SANDBOX_BASE_PATHS[p]}`
  return {
    ESP_BEEHIIV_API_URL: url('beehiiv'),
    ESP_KIT_API_URL: url('kit'),
    ESP_MAILCHIMP_API_URL: url('mailchimp'),
    ESP_MAILERLITE_API_URL: url('mailerlite'),
  }
}

type Fault = { status: number; remaining: number; retryAfterSeconds?: number; after?: number }

const json = (status: number, body: unknown): ApiResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  body,
})
const isProvider = (v: unknown): v is SandboxProvider =>
  typeof v === 'string' && (SANDBOX_PROVIDERS as readonly string[]).includes(v)

/** The credential a request carried, masked, for the log of a request the sandbox answered without looking. */
function credentialOf(headers: Record<string, string>): string | null {
  if (headers['x-kit-api-key']) return mask('X-Kit-Api-Key', headers['x-kit-api-key'])
  const m = /^(\S+)\s+(.+)$/.exec(headers.authorization ?? '')
  if (!m) return null
  const secret = /^basic$/i.test(m[1]!)
    ? Buffer.from(m[2]!, 'base64').toString('utf8').split(':').slice(1).join(':')
    : m[2]!
  return mask(m[1]!, secret)
}

function parseBody(raw: Buffer): unknown {
  const text = raw.toString('utf8')
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

type Faults = Map<SandboxProvider, Fault>

const badProvider = () => json(400, { message: `provider must be one of ${SANDBOX_PROVIDERS.join(', ')}.` })

/** `/_control/fail`: POST forces the next requests to a provider to fail; DELETE clears every forced failure. */
function controlFail(faults: Faults, method: string, b: Record<string, unknown>): ApiResponse {
  if (method === 'DELETE') {
    faults.clear()
    return json(200, { cleared: true })
  }
  if (method !== 'POST') return json(405, { message: 'Use POST to force failures, DELETE to clear them.' })
  const status = Number(b.status)
  const count = b.count === undefined ? 1 : Number(b.count)
  const retryAfter = b.retryAfterSeconds === undefined ? undefined : Number(b.retryAfterSeconds)
  const after = b.after === undefined ? 0 : Number(b.after)
  if (!isProvider(b.provider)) return badProvider()
  if (!Number.isInteger(after) || after < 0 || after > 1000)
    return json(400, { message: 'after must be a whole number from 0 to 1000.' })
  if (![429, 500, 502, 503].includes(status)) return json(400, { message: 'status must be 429, 500, 502 or 503.' })
  if (!Number.isInteger(count) || count < 0 || count > 1000)
    return json(400, { message: 'count must be a whole number from 0 to 1000.' })
  if (retryAfter !== undefined && (!Number.isInteger(retryAfter) || retryAfter < 0 || retryAfter > 86_400)) {
    return json(400, { message: 'retryAfterSeconds must be a whole number of seconds from 0 to 86400.' })
  }
  // Without a stated wait each provider's 429 says what that provider documents (providers.ts, forcedFailure).
  const fault: Fault = {
    status,
    remaining: count,
    ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
    ...(after > 0 ? { after } : {}),
  }
  faults.set(b.provider, fault)
  return json(200, { provider: b.provider, ...fault })
}

/**
 * POST `/_control/engagement` and `/_engagement`: what engagement read-back reports for one subscriber, a person's
 * and a machine's opens and clicks.
 */
async function controlEngagement(store: EspStore, b: Record<string, unknown>): Promise<ApiResponse> {
  const counts = {
    opens: Number(b.opens ?? 0),
    clicks: Number(b.clicks ?? 0),
    machine_opens: Number(b.machine_opens ?? 0),
    machine_clicks: Number(b.machine_clicks ?? 0),
  }
  if (!isProvider(b.provider)) return badProvider()
  if (typeof b.email !== 'string' || !b.email) return json(400, { message: 'email is required.' })
  if (!Object.values(counts).every((n) => Number.isInteger(n) && n >= 0 && n <= 100_000))
    return json(400, {
      message: 'opens, clicks, machine_opens and machine_clicks must be whole numbers from 0 to 100000.',
    })
  const updated = await store.setEngagement(b.provider, b.email, counts)
  return updated
    ? json(200, { updated, ...counts })
    : json(404, { message: `No ${b.provider} subscriber ${b.email} in the sandbox.` })
}

async function control(
  store: EspStore,
  faults: Faults,
  method: string,
  what: string,
  body: unknown,
): Promise<ApiResponse> {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>
  if (what === 'fail') return controlFail(faults, method, b)
  if (what === 'engagement' && method === 'POST') return controlEngagement(store, b)
  return json(404, { message: 'Unknown control: use /esp/_control/fail or /esp/_control/engagement.' })
}

/** `/_api/requests` and `/_api/subscribers`: what the sandbox received and holds, as JSON. */
async function sandboxApi(store: EspStore, req: ApiRequest, what: string): Promise<ApiResponse> {
  const provider = req.query.get('provider') ?? undefined
  if (what === 'requests' && req.method === 'DELETE') {
    await store.clear()
    return json(200, { cleared: true })
  }
  if (req.method !== 'GET') return json(405, { message: 'Method not allowed' })
  return json(200, what === 'requests' ? await store.requests(provider) : await store.subscribers(provider))
}

/** A provider's own API: a forced failure if one is due, else the provider's answer; each request recorded. */
async function providerApi(
  store: EspStore,
  faults: Faults,
  req: ApiRequest,
  provider: SandboxProvider,
  providerPath: string,
): Promise<ApiResponse> {
  const query = req.query.toString()
  const logged = `${providerPath}${query ? `?${query}` : ''}`
  const body = parseBody(req.body)
  const fault = faults.get(provider)
  let answer: ApiResponse
  let auth: string | null
  // A fault waiting `after` requests lets this one through.
  const failNow = fault !== undefined && fault.remaining > 0 && !(fault.after && fault.after-- > 0)
  if (fault && failNow) {
    fault.remaining--
    if (fault.remaining === 0) faults.delete(provider)
    answer = forcedFailure(provider, fault.status, fault.retryAfterSeconds)
    auth = credentialOf(req.headers)
  } else {
    ;({ response: answer, auth } = await PROVIDER_HANDLERS[provider](
      { method: req.method, path: providerPath, query: req.query, headers: req.headers, body },
      store,
    ))
  }
  await store.record({ provider, method: req.method, path: logged, auth, body, status: answer.status })
  return answer
}

/** `mailboxUrl`: the dev mailbox, linked from the sandbox's page (and the mailbox links back). */
export function createEspHandler({
  db,
  mailboxUrl,
  serviceKeys = [],
}: {
  db: Db
  mailboxUrl?: string
  /** The keys `POST /esp/_engagement` takes (the service-role JWT and the secret key). */
  serviceKeys?: string[]
}): Handler & { store: Promise<EspStore> } {
  const store = databaseEspStore(db)
  store.catch((error: unknown) => console.error('[esp] could not prepare the sandbox tables:', error))
  // Forced failures are a developer's or a test's instruction for the next requests, not history: memory only.
  const faults: Faults = new Map()
  /** The service-role JWT or the secret key, as `apikey` or a bearer token. */
  const isService = (headers: Record<string, string>) => {
    const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1]
    return serviceKeys.some((k) => k && (headers.apikey === k || bearer === k))
  }

  const handler: Handler = async (req) => {
    const s = await store
    const path = req.path
    if ((path === '/' || path === '') && (req.method === 'GET' || req.method === 'HEAD')) {
      const [subscribers, requests] = await Promise.all([s.subscribers(), s.requests(undefined, 100)])
      return {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
        body: espPage({ subscribers, requests, faults, mailboxUrl }),
      }
    }
    if (path === '/_engagement') {
      if (req.method !== 'POST') return json(405, { message: 'Use POST.' })
      if (!isService(req.headers))
        return json(401, { message: 'POST /esp/_engagement takes the service-role or secret key (apikey header).' })
      const body = parseBody(req.body)
      return controlEngagement(s, (body && typeof body === 'object' ? body : {}) as Record<string, unknown>)
    }
    const ctl = /^\/_control\/([a-z]+)$/.exec(path)
    if (ctl) return control(s, faults, req.method, ctl[1]!, parseBody(req.body))
    const api = /^\/_api\/(requests|subscribers)$/.exec(path)
    if (api) return sandboxApi(s, req, api[1]!)
    const match = /^\/([a-z]+)(\/.*)$/.exec(path)
    if (!match || !isProvider(match[1]))
      return json(404, {
        message: `No sandbox here: use /esp/{${SANDBOX_PROVIDERS.join('|')}}/… or the page at /esp/.`,
      })
    return providerApi(s, faults, req, match[1], match[2]!)
  }
  return Object.assign(handler, { store })
}
