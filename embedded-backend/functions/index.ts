/**
 * `/functions/v1/<name>`: runs `supabase/functions/<name>/index.ts` as hosted Supabase does, under one
 * long-lived Deno process (deno-process.ts + host.ts). This side applies the per-function `verify_jwt`
 * setting from config.toml, answers unknown names with 404, and forwards the request (method, headers,
 * body, and the gateway's client IP in x-real-ip and x-forwarded-for) to the Deno host, returning its status, headers and body unchanged.
 */
import http from 'node:http'
import { existsSync } from 'node:fs'
import path from 'node:path'
import type { ApiRequest, ApiResponse, BackendContext, Handler } from '../context'
import { verifyJwt } from '../keys'
import { createDenoHost, repoRoot } from './deno-process'
import { espSandboxUrls } from '../esp/index'

export type FunctionsOptions = {
  /** Defaults to supabase/functions; tests point it at their fixtures. */
  functionsDir?: string
  /** Wall-clock limit per request (hosted: 150 s). */
  timeoutMs?: number
  /** Where the functions' console output goes; default stderr with a prefix. */
  log?: (line: string) => void
  /** More environment for every function (e.g. the Stripe settings), added to the standard set. */
  env?: Record<string, string>
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/
// Hop-by-hop headers belong to one connection, not to the request or response being forwarded.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'te',
  'trailer',
])
const DEFAULT_FROM = 'Growletter <no-reply@growletter.test>'

const json = (status: number, body: unknown): ApiResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body,
})

export function createFunctionsHandler(
  ctx: BackendContext,
  options: FunctionsOptions = {},
): Handler & { close(): Promise<void> } {
  const functionsDir = path.resolve(options.functionsDir ?? path.join(repoRoot, 'supabase/functions'))
  const agent = new http.Agent({ keepAlive: true })
  let host: ReturnType<typeof createDenoHost> | undefined

  // Created on first call: by then the gateway knows its own URL (it may listen on port 0).
  const denoHost = () =>
    (host ??= createDenoHost({
      functionsDir,
      timeoutMs: options.timeoutMs ?? 150_000,
      log: options.log ?? ((line) => process.stderr.write(`[functions] ${line}\n`)),
      env: { ...functionsEnv(ctx), ...options.env },
    }))

  const handler = async (req: ApiRequest): Promise<ApiResponse> => {
    const name = req.path.split('/')[1] ?? ''
    if (!NAME.test(name) || !existsSync(path.join(functionsDir, name, 'index.ts'))) {
      return json(404, { code: 'NOT_FOUND', message: 'Requested function was not found' })
    }
    if (verifyJwtSetting(ctx, name)) {
      const denied = await checkJwt(req)
      if (denied) return denied
    }
    try {
      const port = await denoHost().port()
      return await forward(agent, port, req)
    } catch (error) {
      process.stderr.write(`[functions] ${name}: ${(error as Error).message}\n`)
      return json(500, { code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' })
    }
  }

  return Object.assign(handler, {
    async close() {
      await host?.stop()
      agent.destroy()
    },
  })
}

/**
 * Production settings a developer may give the backend's own environment to try the real service from here (e.g.
 * EMAIL_PROVIDER=resend with RESEND_API_KEY and EMAIL_FROM); unset, the local stand-ins answer.
 */
const PASSED_THROUGH = ['EMAIL_PROVIDER', 'EMAIL_FROM', 'RESEND_API_KEY', 'RESEND_API_URL']

/**
 * The environment every function sees: what hosted Supabase injects (the URL; the current keys as JSON objects of
 * named keys, `{"default": "sb_…"}`; the JWKS user tokens verify against; the legacy JWT keys), plus our SMTP
 * settings and the local marker. SUPABASE_DB_URL, also injected on hosted, is not set: no function connects to the
 * database directly.
 */
function functionsEnv(ctx: BackendContext): Record<string, string> {
  return {
    // The one marker of local development: only here may a missing production secret (STRIPE_SECRET_KEY, the
    // email API's key) fall back to a stand-in of this backend. Hosted Supabase never sets it (functions/_shared/env.ts).
    GROWLETTER_LOCAL: '1',
    ...Object.fromEntries(PASSED_THROUGH.flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : []))),
    SUPABASE_URL: ctx.apiUrl,
    SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: ctx.publishableKey }),
    SUPABASE_SECRET_KEYS: JSON.stringify({ default: ctx.secretKey }),
    SUPABASE_JWKS: JSON.stringify({ keys: ctx.signingKey ? [ctx.signingKey.publicJwk] : [] }),
    SUPABASE_ANON_KEY: ctx.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: ctx.serviceRoleKey,
    SITE_URL: String(ctx.config.auth?.site_url ?? 'http://127.0.0.1:5173'),
    SMTP_HOST: ctx.smtp.host,
    SMTP_PORT: String(ctx.smtp.port),
    SMTP_FROM: process.env.SMTP_FROM ?? DEFAULT_FROM,
    // This backend is local development by definition: deliver-webhooks may also send to http://127.0.0.1.
    WEBHOOKS_ALLOW_LOOPBACK_HTTP: 'true',
    // The ESP clients talk to the local ESP sandbox (/esp) unless the developer names a real API in the
    // environment (ESP_BEEHIIV_API_URL=https://api.beehiiv.com/v2, and so on).
    ...Object.fromEntries(
      Object.entries(espSandboxUrls(ctx.apiUrl)).map(([name, url]) => [name, process.env[name] || url]),
    ),
  }
}

/** Hosted Supabase's default is true: a function must opt out in config.toml to be called without a JWT. */
function verifyJwtSetting(ctx: BackendContext, name: string): boolean {
  const setting = ctx.config.functions?.[name]?.verify_jwt
  return setting !== false
}

// Like the hosted platform check, any valid project JWT passes (a user's, or a legacy key's); a missing or bad one
// is 401, and so is an opaque `sb_` key there: it is no JWT (hosted docs, "Authorization headers").
async function checkJwt(req: ApiRequest): Promise<ApiResponse | undefined> {
  const match = /^bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')
  if (!match) return json(401, { code: 401, message: 'Missing authorization header' })
  const verified = await verifyJwt(match[1].trim())
  if (!verified.ok) return json(401, { code: 401, message: 'Invalid JWT' })
  return undefined
}

function forward(agent: http.Agent, port: number, req: ApiRequest): Promise<ApiResponse> {
  const headers: Record<string, string> = {}
  for (const [key, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(key)) headers[key] = value
  // The one client IP the gateway resolved; never a value the client wrote (see client-ip.ts).
  headers['x-forwarded-for'] = req.ip
  headers['x-real-ip'] = req.ip
  // The host must not compress: the gateway sends the body on as it is.
  headers['accept-encoding'] = 'identity'
  if (req.body.length > 0) headers['content-length'] = String(req.body.length)
  const search = req.query.toString()
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      { host: '127.0.0.1', port, agent, method: req.method, path: req.path + (search ? `?${search}` : ''), headers },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('error', reject)
        res.on('end', () => {
          const out: Record<string, string> = {}
          for (const [key, value] of Object.entries(res.headers)) {
            if (value === undefined || HOP_BY_HOP.has(key)) continue
            out[key] = Array.isArray(value) ? value.join(', ') : value
          }
          resolve({ status: res.statusCode ?? 500, headers: out, body: Buffer.concat(chunks) })
        })
      },
    )
    outgoing.on('error', reject)
    outgoing.end(req.body.length > 0 ? req.body : undefined)
  })
}
