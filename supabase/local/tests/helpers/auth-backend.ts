/**
 * A test backend for the auth API: in-memory PGlite with the real migrations (so the auth.users
 * triggers run), the auth handler behind a minimal HTTP adapter that does what the gateway does for
 * /auth/v1 (apikey check, client IP from x-forwarded-for), and a real dev mailbox with its SMTP sink.
 * Tests drive it with the real supabase-js client over HTTP.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import ws from 'ws'
import { createAuthHandler, ensureAuthSchema } from '../../auth/index'
import { loadConfig } from '../../config'
import type { ApiRequest, BackendContext, Handler } from '../../context'
import { openDatabase, type Db } from '../../db/database'
import { migrate } from '../../db/migrate'
import { apiKeys, verifyJwt, type JwtClaims } from '../../keys'
import { createSmtpMailer, startMailbox } from '../../mail/index'

export type AuthTestBackend = {
  apiUrl: string
  mailboxUrl: string
  anonKey: string
  serviceRoleKey: string
  db: Db
  ctx: BackendContext
  /** A fresh supabase-js client with the anon key (optionally with extra headers, e.g. x-forwarded-for). */
  client(headers?: Record<string, string>): SupabaseClient
  /** A supabase-js client with the service-role key, for `auth.admin`. */
  admin(): SupabaseClient
  close(): Promise<void>
}

/** Rate limits high enough that a whole test file never trips them; the rate-limit test lowers them. */
export const RELAXED_RATE_LIMITS = { email_sent: 10_000, sign_in_sign_ups: 10_000, token_verifications: 10_000, token_refresh: 10_000 }

const OPEN_ROUTES = ['/auth/v1/verify', '/auth/v1/callback', '/auth/v1/authorize']

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

function adapter(getHandler: () => Handler) {
  return http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://local')
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v
    const key = await verifyJwt(headers.apikey ?? '')
    // As hosted Supabase's API gateway: email links reach /auth/v1/verify from a browser without an apikey.
    const open = OPEN_ROUTES.includes(url.pathname) && !headers.apikey
    if (!url.pathname.startsWith('/auth/v1/') || (!key.ok && !open)) {
      res.writeHead(url.pathname.startsWith('/auth/v1/') ? 401 : 404, { 'Content-Type': 'application/json' })
      return res.end(JSON.stringify({ message: 'Invalid API key' }))
    }
    const claims: JwtClaims = key.ok ? key.claims : { role: 'anon' }
    const apiReq: ApiRequest = {
      method: req.method ?? 'GET',
      path: url.pathname.slice('/auth/v1'.length),
      query: url.searchParams,
      headers,
      body: await readBody(req),
      ip: headers['x-forwarded-for']?.split(',')[0]?.trim() || req.socket.remoteAddress || '',
      role: claims.role,
      claims,
    }
    const out = await getHandler()(apiReq)
    const isJson = out.body !== undefined && typeof out.body !== 'string' && !Buffer.isBuffer(out.body)
    res.writeHead(out.status, { ...(isJson ? { 'Content-Type': 'application/json' } : {}), ...out.headers })
    res.end(isJson ? JSON.stringify(out.body) : (out.body as string | Buffer | undefined))
  })
}

export async function startAuthTestBackend(): Promise<AuthTestBackend> {
  const db = await openDatabase({})
  await migrate(db, { seed: false })
  await ensureAuthSchema(db)
  const mailbox = await startMailbox({ httpPort: 0, smtpPort: 0, host: '127.0.0.1' })
  const mailer = createSmtpMailer({ host: '127.0.0.1', port: mailbox.smtpPort })
  const config = await loadConfig()
  config.auth.rate_limit = { ...config.auth.rate_limit, ...RELAXED_RATE_LIMITS }
  let handler: Handler | undefined
  const server = adapter(() => handler!)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const { anonKey, serviceRoleKey } = await apiKeys()
  const ctx: BackendContext = { db, config, apiUrl, anonKey, serviceRoleKey, smtp: { host: '127.0.0.1', port: mailbox.smtpPort }, mailer }
  handler = createAuthHandler(ctx)

  const make = (key: string, headers: Record<string, string> = {}) =>
    createClient(apiUrl, key, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: ws as never },
      global: { headers },
    })
  return {
    apiUrl,
    mailboxUrl: mailbox.httpUrl,
    anonKey,
    serviceRoleKey,
    db,
    ctx,
    client: (headers) => make(anonKey, headers),
    admin: () => make(serviceRoleKey),
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      mailer.close()
      await mailbox.close()
      await db.close()
    },
  }
}
