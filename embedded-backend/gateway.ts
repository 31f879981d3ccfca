/**
 * The HTTP front door, playing the part Kong plays in hosted Supabase: CORS, the `apikey` check (the opaque
 * publishable and secret keys, and the legacy JWT keys), bearer JWT verification for /rest/v1, the 1 MB body
 * limit, routing to the APIs, and the guarantee that a failing handler costs one 500 answer, never the process.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { resolveClientIp } from './client-ip'
import type { ApiRequest, ApiResponse, Handler } from './context'
import { apiKeys, isOpaqueKey, opaqueKeyRole, verifyJwt, type ApiRole, type JwtClaims, type VerifyResult } from './keys'

export const MAX_BODY_BYTES = 1024 * 1024

export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers':
    'apikey, authorization, x-client-info, accept-profile, content-profile, content-type, prefer, x-supabase-api-version, x-retry-count, range, range-unit',
  'access-control-expose-headers': 'content-range, x-supabase-api-version, location, preference-applied',
  'access-control-max-age': '3600',
}

type Api = 'auth' | 'rest' | 'functions'
/**
 * `checkout`: the local test checkout (embedded-backend/checkout), which stands in for Stripe.
 * `esp`: the local ESP sandbox (embedded-backend/esp), which stands in for beehiiv, Kit, Mailchimp and MailerLite.
 */
export type Routes = Record<Api, Handler> & { checkout?: Handler; esp?: Handler }

/** GoTrue endpoints hosted Supabase serves without an apikey: links opened from emails, and the probe. */
// The JWKS is public on hosted Supabase too: verifiers (another service, a CDN worker) hold no API key.
const OPEN_AUTH_PATHS = new Set(['/verify', '/callback', '/authorize', '/health', '/.well-known/jwks.json'])

/** Each API's own error shape, so supabase-js reports gateway errors like the API's. */
function apiError(api: Api | null, status: number, code: string, message: string): ApiResponse {
  const body =
    api === 'rest'
      ? { code, message, details: null, hint: null }
      : api === 'auth'
        ? { code: status, error_code: code, msg: message }
        : { code, message }
  return { status, headers: { 'content-type': 'application/json; charset=utf-8' }, body }
}

function keyError(message: string, hint: string): ApiResponse {
  return { status: 401, headers: { 'content-type': 'application/json; charset=utf-8' }, body: { message, hint } }
}

/**
 * Hosted Supabase answers a secret key sent by a browser with 401, whatever the request, telling browsers apart by
 * their User-Agent (docs: "API keys", secret keys). Every browser's starts with `Mozilla/`; server runtimes
 * (Node's fetch, Deno, curl) send their own names.
 */
const BROWSER_USER_AGENT = /^Mozilla\//
const secretKeyInBrowser = () =>
  keyError(
    'Forbidden use of secret API key in browser',
    'Secret API keys (sb_secret_…) are for servers only: use the publishable key in a browser, ' +
      'and replace a secret key that reached one.',
  )

const EXPIRED: VerifyResult = { ok: false, reason: 'expired' }

/**
 * Verifying an HS256 token costs more than the rest of a cached request; tokens repeat, so remember them, keyed by
 * the token's exact text. Only the signature check is remembered: expiry is checked against the clock on every use.
 */
class TokenCache {
  private readonly entries = new Map<string, { claims: JwtClaims; ok: VerifyResult }>()
  /** A token verified before, checked for expiry now, without a promise; undefined when not seen yet. */
  cached(token: string): VerifyResult | undefined {
    const hit = this.entries.get(token)
    if (!hit) return undefined
    const { exp } = hit.claims
    return typeof exp === 'number' && exp * 1000 <= Date.now() ? EXPIRED : hit.ok
  }
  async verify(token: string): Promise<VerifyResult> {
    const hit = this.cached(token)
    if (hit) return hit
    const result = await verifyJwt(token)
    if (result.ok) {
      if (this.entries.size >= 1000) this.entries.clear()
      this.entries.set(token, { claims: result.claims, ok: { ok: true, claims: result.claims } })
    }
    return result
  }
}

export type GatewayOptions = {
  routes: () => Routes
  log?: (line: string) => void
  /** The header a trusted proxy sets with the client's address (lower-case); unset = the socket address. */
  clientIpHeader?: string
  /** Functions with `verify_jwt = false`: reachable with no apikey, as on hosted Supabase (Stripe sends none). */
  openFunction?: (name: string) => boolean
}

type KeyCheck = { ok: true; claims: JwtClaims; opaque: boolean } | { ok: false; answer: ApiResponse }

/** What one gateway holds across requests: its options, the token cache and the legacy keys. */
type Gateway = GatewayOptions & { tokens: TokenCache; legacyJwtOf: (role: ApiRole) => Promise<string> }

/** Who a request is: the apikey's role, then the bearer token's when it carries a valid one. */
type Caller = { role: ApiRole; claims: JwtClaims; opaqueKey: boolean; token?: string }

/** A request's headers, each one string (repeated headers joined as Node joins them). */
function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {}
  const sent = req.headers
  for (const k in sent) {
    const v = sent[k]
    if (v !== undefined) headers[k] = typeof v === 'string' ? v : v.join(', ')
  }
  return headers
}

/**
 * The apikey: an opaque key this project issued (its role; a secret key never from a browser), or a legacy
 * `anon`/`service_role` JWT. A user's token is not an API key.
 */
async function checkApiKey(g: Gateway, apikey: string, userAgent: string | undefined): Promise<KeyCheck> {
  const invalid: KeyCheck = {
    ok: false,
    answer: keyError('Invalid API key', 'Double check your Supabase `anon` or `service_role` API key.'),
  }
  if (isOpaqueKey(apikey)) {
    const role = opaqueKeyRole(apikey)
    if (!role) return invalid
    if (role === 'service_role' && BROWSER_USER_AGENT.test(userAgent ?? ''))
      return { ok: false, answer: secretKeyInBrowser() }
    return { ok: true, claims: { role }, opaque: true }
  }
  const key = g.tokens.cached(apikey) ?? (await g.tokens.verify(apikey))
  if (!key.ok || key.claims.role === 'authenticated') return invalid
  return { ok: true, claims: key.claims, opaque: false }
}

/** The apikey step: the caller's role from the key; a path open without a key is served as anon. */
async function keyStep(
  g: Gateway,
  api: Api,
  path: string,
  headers: Record<string, string>,
  apikey: string | undefined,
): Promise<{ ok: true; caller: Caller } | { ok: false; answer: ApiResponse }> {
  const caller: Caller = { role: 'anon', claims: { role: 'anon' }, opaqueKey: false }
  const open =
    (api === 'auth' && OPEN_AUTH_PATHS.has(path)) ||
    (api === 'functions' && !!g.openFunction?.(path.split('/')[1] ?? ''))
  if (apikey === undefined) {
    if (!open)
      return {
        ok: false,
        answer: keyError('No API key found in request', 'No `apikey` request header or url param was found.'),
      }
  } else {
    const key = await checkApiKey(g, apikey, headers['user-agent'])
    if (!key.ok) {
      if (!open) return { ok: false, answer: key.answer }
    } else {
      caller.role = key.claims.role
      caller.claims = key.claims
      caller.opaqueKey = key.opaque
    }
  }
  return { ok: true, caller }
}

/** REST's answer to a bearer token that does not verify, as PostgREST words it. */
function invalidToken(expired: boolean): ApiResponse {
  const message = expired ? 'JWT expired' : 'JWSError JWSInvalidSignature'
  const answer = apiError('rest', 401, expired ? 'PGRST303' : 'PGRST301', message)
  answer.headers!['www-authenticate'] = `Bearer error="invalid_token", error_description="${message}"`
  return answer
}

/**
 * The Authorization step: a valid bearer JWT makes the caller its role (auth reads its own tokens); an opaque key
 * there is swapped for its role's legacy JWT or refused. Changes `headers` and `caller`; an answer means refused.
 */
async function bearerStep(
  g: Gateway,
  api: Api,
  headers: Record<string, string>,
  apikey: string | undefined,
  caller: Caller,
): Promise<ApiResponse | undefined> {
  const sentAuthorization = headers['authorization']
  let bearer = /^Bearer\s+(.*)$/i.exec(sentAuthorization ?? '')?.[1]?.trim()
  const malformed = sentAuthorization !== undefined && bearer === undefined
  // An opaque key is no JWT: in Authorization hosted takes one only when it repeats the apikey (supabase-js sends
  // `Bearer <key>` while nobody is signed in). Auth and REST then see the legacy JWT of the key's role in its
  // place, as hosted's gateway hands them a JWT; a function sees what the caller sent (hosted forwards it as is).
  if (api !== 'functions' && caller.opaqueKey && (bearer === apikey || sentAuthorization === undefined)) {
    bearer = undefined
    headers['authorization'] = `Bearer ${await g.legacyJwtOf(caller.role)}`
  } else if (api !== 'functions' && bearer !== undefined && isOpaqueKey(bearer)) {
    return keyError(
      'Invalid API key',
      'Authorization takes a JWT, or the same `sb_` key as the `apikey` header; send API keys in `apikey`.',
    )
  }
  if (api !== 'auth' && bearer) {
    const verified = g.tokens.cached(bearer) ?? (await g.tokens.verify(bearer))
    if (verified.ok) {
      caller.role = verified.claims.role
      caller.claims = verified.claims
      caller.token = bearer
    } else if (api === 'rest') return invalidToken(verified.reason === 'expired')
  } else if (api === 'rest' && malformed) {
    return apiError('rest', 401, 'PGRST301', 'Expected a bearer token in the Authorization header')
  }
  return undefined
}

/** `/auth/v1…`, `/rest/v1…`, `/functions/v1…`: the API and the path below its prefix. */
const API_PATH = /^\/(auth|rest|functions)\/v1(\/.*)?$/

/** /auth/v1, /rest/v1 and /functions/v1: the key and token checks, then the API's handler. */
async function dispatch(
  g: Gateway,
  req: IncomingMessage,
  url: URL,
  match: RegExpExecArray | null,
  body: Buffer,
  ip: string,
): Promise<ApiResponse> {
  if (!match)
    return {
      status: 404,
      headers: { 'content-type': 'application/json' },
      body: { message: 'no Route matched with those values' },
    }
  const api = match[1] as Api
  const path = match[2] ?? '/'
  const headers = headersOf(req)
  // SQL (request.headers) and edge functions read the client IP from these two headers: whatever the
  // client wrote there is replaced by the one address the gateway resolved.
  headers['x-forwarded-for'] = ip
  headers['x-real-ip'] = ip

  const apikey = headers['apikey'] ?? url.searchParams.get('apikey') ?? undefined
  const keyed = await keyStep(g, api, path, headers, apikey)
  if (!keyed.ok) return keyed.answer
  const { caller } = keyed
  const refused = await bearerStep(g, api, headers, apikey, caller)
  if (refused) return refused
  // The key is the gateway's business; left in, the REST API would read it as a filter.
  if (url.search !== '' && url.searchParams.has('apikey')) url.searchParams.delete('apikey')
  const apiRequest: ApiRequest = {
    method: req.method ?? 'GET',
    path,
    query: url.searchParams,
    headers,
    body,
    ip,
    role: caller.role,
    claims: caller.claims,
    token: caller.token,
  }
  try {
    return await g.routes()[api](apiRequest)
  } catch (error) {
    g.log?.(`[gateway] ${req.method} ${url.pathname} failed: ${(error as Error)?.stack ?? String(error)}`)
    return apiError(api, 500, api === 'auth' ? 'unexpected_failure' : 'INTERNAL_ERROR', 'Internal server error')
  }
}

/** One request: the body within its limit, the client's address, then a stand-in or one of the APIs. */
async function handle(g: Gateway, req: IncomingMessage): Promise<ApiResponse> {
  if (req.method === 'OPTIONS') return { status: 200, headers: { 'content-length': '0' } }
  let url: URL
  try {
    url = new URL(req.url ?? '/', 'http://localhost')
  } catch {
    return { status: 400, headers: { 'content-type': 'application/json' }, body: { message: 'Invalid request URL' } }
  }
  const apiMatch = API_PATH.exec(url.pathname)
  // The API whose error shape a refused body gets: the prefix alone decides (`/rest/v1x` is REST's too).
  const api = (apiMatch?.[1] ?? /^\/(auth|rest|functions)\/v1/.exec(url.pathname)?.[1] ?? null) as Api | null
  const body = await readBody(req)
  if (body === undefined) return { status: 400, body: { message: 'Request body incomplete' } }
  if (body === null) {
    return apiError(api, 413, api === 'auth' ? 'request_too_large' : 'PGRST413', 'Request body is larger than 1 MB')
  }
  const ip = resolveClientIp(req.headers, req.socket.remoteAddress, g.clientIpHeader)
  const standIn = /^\/(checkout|esp)(\/.*)?$/.exec(url.pathname)
  const local = standIn ? g.routes()[standIn[1] as 'checkout' | 'esp'] : undefined
  if (standIn && local) {
    // Stripe's and the ESPs' stand-ins: browsers and the functions reach them with no apikey, as they reach
    // the real services (which check their own credentials).
    const claims: JwtClaims = { role: 'anon' }
    return local({
      method: req.method ?? 'GET',
      path: standIn[2] ?? '/',
      query: url.searchParams,
      headers: headersOf(req),
      body,
      ip,
      role: 'anon',
      claims,
    })
  }
  return dispatch(g, req, url, apiMatch, body, ip)
}

export function createGateway(options: GatewayOptions) {
  // The legacy JWT of each opaque key's role stands in for it downstream (auth and REST read JWTs).
  const legacyKeys = apiKeys()
  const legacyJwtOf = async (role: ApiRole) => {
    const { anonKey, serviceRoleKey } = await legacyKeys
    return role === 'service_role' ? serviceRoleKey : anonKey
  }
  const g: Gateway = { ...options, tokens: new TokenCache(), legacyJwtOf }
  const { log } = options

  return async function listener(req: IncomingMessage, res: ServerResponse) {
    const started = performance.now()
    res.on('error', ignore)
    req.on('error', ignore)
    let answer: ApiResponse
    try {
      answer = await handle(g, req)
    } catch (error) {
      log?.(`[gateway] ${req.method} ${req.url} failed: ${(error as Error)?.stack ?? String(error)}`)
      answer = {
        status: 500,
        headers: { 'content-type': 'application/json' },
        body: { message: 'Internal server error' },
      }
    }
    send(res, req.method === 'HEAD', answer)
    log?.(`${req.method} ${req.url} ${answer.status} ${(performance.now() - started).toFixed(1)}ms`)
  }
}

/** A client that went away is no error of the server's (its socket's errors are not reported). */
function ignore() {}

/**
 * The body; null when it passes the limit (the rest is drained so the connection can answer);
 * undefined when the client went away before sending all of it.
 */
function readBody(req: IncomingMessage): Promise<Buffer | null | undefined> {
  const declared = Number(req.headers['content-length'] ?? 0)
  return new Promise((resolve) => {
    if (declared > MAX_BODY_BYTES) {
      req.resume()
      resolve(null)
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    let over = false
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) over = true
      else chunks.push(chunk)
    })
    req.on('end', () => {
      // One chunk (most bodies) is the body as it is.
      resolve(over ? null : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks))
    })
    // A client that goes away mid-body must not leave a half-read request running against the database. After
    // 'end' the promise is settled and a later resolve does nothing.
    req.on('error', () => resolve(undefined))
    req.on('close', () => resolve(undefined))
  })
}

function send(res: ServerResponse, head: boolean, answer: ApiResponse) {
  if (res.headersSent || res.destroyed) return
  const headers: Record<string, string> = { ...CORS_HEADERS, ...(answer.headers ?? {}) }
  let payload: Buffer | string | undefined
  const body = answer.body
  if (body === undefined || body === null || answer.status === 204 || answer.status === 304) payload = undefined
  else if (typeof body === 'string' || Buffer.isBuffer(body)) payload = body
  else if (body instanceof Uint8Array) payload = Buffer.from(body)
  else {
    payload = JSON.stringify(body)
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json; charset=utf-8'
  }
  if (payload !== undefined && !head) headers['content-length'] = String(Buffer.byteLength(payload))
  try {
    res.writeHead(answer.status, headers)
    res.end(head ? undefined : payload)
  } catch {
    res.destroy()
  }
}
