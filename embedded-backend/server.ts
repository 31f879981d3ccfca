/**
 * Starts the embedded Supabase-compatible backend: the database (migrated and seeded), the dev mailbox
 * with its SMTP sink, and one HTTP server serving /auth/v1, /rest/v1 and /functions/v1 on 127.0.0.1, plus the
 * local stand-ins for Stripe (/checkout) and the email service providers (/esp).
 * `npm run backend`, `npm run dev`, the tests and the benchmarks all start it through `startBackend`.
 */
import { readFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { createAuthHandler, ensureAuthSchema } from './auth/index'
import { trustedHeaderName } from './client-ip'
import { loadConfig, mailboxPorts, numberSetting } from './config'
import { configReport } from './config-report'
import type { BackendContext } from './context'
import { ensureFunctionsSecret, startBackground, type Background } from './cron/background'
import type { Db } from './db/database'
import { supabaseDir } from './db/migrate'
import { openBackendDb, type Origin } from './db/open-backend-db'
import { createCheckoutHandler, LOCAL_STRIPE_WEBHOOK_SECRET } from './checkout/index'
import { connectWebhookSecret, createConnectHandler, withConnect } from './connect/index'
import { createEspHandler } from './esp/index'
import { createFunctionsHandler } from './functions/index'
import { createGateway, type Routes } from './gateway'
import { apiKeys, loadSigningKey, LOCAL_SIGNING_JWK, type SigningKey } from './keys'
import { createSmtpMailer, startMailbox } from './mail/index'
import { createRestHandler } from './rest/handler'

export const DEFAULT_DATA_DIR = path.join(supabaseDir, '.local', 'db')
const HOST = '127.0.0.1'

export type BackendOptions = {
  /** Default 54321; 0 picks a free port (tests). */
  port?: number
  /** Mailbox page/API port: config.toml's `[local_smtp] port` (default 54324), or ephemeral when `port` is 0. */
  mailPort?: number
  /** SMTP sink port: config.toml's `[local_smtp] smtp_port` (default 54325), or ephemeral when `port` is 0. */
  smtpPort?: number
  /** PGlite folder; default supabase/.local/db unless `databaseUrl` is set. `null` = in memory (tests). */
  dataDir?: string | null
  /** A PostgreSQL URL instead of PGlite; defaults to the DATABASE_URL environment variable. */
  databaseUrl?: string
  /** Start from an empty database. */
  reset?: boolean
  /** Apply seed.sql on a new database (default true). */
  seed?: boolean
  /** Log each request to stderr. */
  log?: boolean
  /** Overrides config.toml's auth.site_url (where auth emails and redirects send people), e.g. for e2e. */
  siteUrl?: string
  /**
   * The header a trusted reverse proxy sets with the client's address (e.g. `x-real-ip`); defaults to the
   * CLIENT_IP_HEADER environment variable. Unset, the socket address is the client IP and no header is
   * believed. Test stacks set it to give simulated visitors their own addresses.
   */
  clientIpHeader?: string
  /**
   * Run pg_cron's jobs and pg_net's requests on timers (default true). `false` for tests that want no
   * background work, or that drive it themselves with `backend.cron.tick()`.
   */
  cron?: boolean
  /** Overrides config.toml's `[api]` keys (tests expose more schemas or turn on aggregates and plans). */
  api?: Record<string, unknown>
  /** Overrides config.toml's `[auth]` keys, top level only (tests turn on anonymous sign-ins and the like). */
  auth?: Record<string, unknown>
  /**
   * Runs on the opened database before the APIs read it (tests make their own tables here), as on a database that
   * already held them: the REST schema cache's one load at start sees them. Tests made them after the start and
   * loaded the cache again, the first load's ≈40 ms of CPU (PGlite, the migrated schema) read by nobody.
   */
  prepare?: (db: Db) => Promise<void>
}

export type Backend = {
  apiUrl: string
  mailboxUrl: string
  /** Legacy JWT API keys, still accepted (anon, service_role). */
  anonKey: string
  serviceRoleKey: string
  /** The current API keys: `sb_publishable_…` (what the SPA sends) and `sb_secret_…` (servers only). */
  publishableKey: string
  secretKey: string
  /** What pg_net sends the scheduled functions as `x-functions-secret` (Vault `functions_secret`, FUNCTIONS_SECRET). */
  functionsSecret: string
  /** What the payments webhook verifies and the local checkout signs with (STRIPE_WEBHOOK_SECRET). */
  stripeWebhookSecret: string
  /** What the connect webhook verifies and the local Connect stand-in signs with (STRIPE_CONNECT_WEBHOOK_SECRET). */
  stripeConnectWebhookSecret: string
  db: Db
  /** The local pg_cron scheduler and pg_net worker (tests run a tick at a chosen time). */
  cron: Pick<Background, 'tick' | 'drainNet'>
  /** Re-reads the REST schema cache (after changing tables outside migrations, as tests do). */
  reloadSchema(): Promise<void>
  /** config.toml keys the backend does not act on (config-report.ts), also printed at start. */
  configReport: string[]
  /** How the database began and milliseconds per start-up step (printed by `npm run backend`). */
  startup: { origin: Origin; phases: Record<string, number> }
  close(): Promise<void>
}

/**
 * The asymmetric key user tokens are signed with: `[auth] signing_keys_path` (relative to supabase/, as the
 * Supabase CLI reads it), else the local development key (keys.ts), as a new hosted project signs with its own
 * asymmetric key from the start. A path that cannot be read or holds no usable key stops the start with the
 * reason: quietly falling back to another key would hide the difference this setting exists to remove.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- TOML
async function readSigningKey(config: Record<string, any>): Promise<SigningKey> {
  const file = config.auth?.signing_keys_path
  if (typeof file !== 'string' || file === '') return loadSigningKey(LOCAL_SIGNING_JWK)
  const full = path.resolve(supabaseDir, file)
  try {
    return await loadSigningKey(JSON.parse(await readFile(full, 'utf8')))
  } catch (error) {
    throw new Error(`[auth] signing_keys_path ${full}: ${(error as Error).message}`)
  }
}

let crashGuardInstalled = false

/** A stray rejection in any API must not end a server other people's work depends on. */
function installCrashGuard() {
  if (crashGuardInstalled) return
  crashGuardInstalled = true
  process.on('unhandledRejection', (reason) => {
    console.error('[backend] unhandled rejection:', reason)
  })
}

type Config = Awaited<ReturnType<typeof loadConfig>>
type Mailbox = Awaited<ReturnType<typeof startMailbox>>

/**
 * The config, the API keys, the mailbox and the database, started side by side. If one fails, whatever did
 * start is stopped again, so a failed start leaves no port or database open.
 */
async function startParts(opts: BackendOptions) {
  const ephemeral = (opts.port ?? 54321) === 0
  const databaseUrl = opts.databaseUrl ?? process.env.DATABASE_URL ?? undefined
  const dataDir = opts.dataDir === null ? undefined : (opts.dataDir ?? DEFAULT_DATA_DIR)
  const loadingConfig = loadConfig()
  const [configR, keysR, mailboxR, openedR] = await Promise.allSettled([
    loadingConfig,
    apiKeys(),
    // The ports come from config.toml (a few milliseconds to parse), so the mailbox waits for it, not for the database.
    loadingConfig.then((config) => {
      const ports = mailboxPorts(config)
      return startMailbox({
        httpPort: opts.mailPort ?? (ephemeral ? 0 : (ports.port ?? 54324)),
        smtpPort: opts.smtpPort ?? (ephemeral ? 0 : (ports.smtpPort ?? 54325)),
        host: HOST,
      })
    }),
    openBackendDb({ dataDir, databaseUrl, reset: opts.reset, seed: opts.seed, afterBootstrap: ensureAuthSchema }),
  ])
  if (
    configR.status === 'rejected' ||
    keysR.status === 'rejected' ||
    mailboxR.status === 'rejected' ||
    openedR.status === 'rejected'
  ) {
    if (mailboxR.status === 'fulfilled') await mailboxR.value.close().catch(() => {})
    if (openedR.status === 'fulfilled') await openedR.value.db.close().catch(() => {})
    throw [configR, keysR, mailboxR, openedR].map((r) => (r.status === 'rejected' ? r.reason : null)).find(Boolean)
  }
  return { config: configR.value, keys: keysR.value, mailbox: mailboxR.value, opened: openedR.value }
}

/** The options' overrides over config.toml; answers the keys the backend ignores (config-report.ts), printed. */
function applyConfigOptions(config: Config, opts: BackendOptions): string[] {
  if (opts.siteUrl) config.auth = { ...(config.auth ?? {}), site_url: opts.siteUrl }
  if (opts.api) config.api = { ...(config.api ?? {}), ...opts.api }
  // Nested tables merge ([auth.email.template.confirmation] overridden alone keeps the rest of [auth.email]).
  if (opts.auth) config.auth = mergeTables(config.auth ?? {}, opts.auth)
  // Never silent: a key the backend ignores makes local behaviour differ from hosted Supabase.
  const report = configReport(config)
  for (const line of report) console.warn(`[backend] config.toml: ${line}`)
  return report
}

function createRest(config: Config, db: Db) {
  const api = config.api ?? {}
  return createRestHandler({
    db,
    maxRows: numberSetting(config, ['api', 'max_rows']),
    schemas: Array.isArray(api.schemas) && api.schemas.length ? api.schemas.map(String) : undefined,
    aggregates: api.db_aggregates_enabled === true,
    planEnabled: api.db_plan_enabled === true,
  })
}

function listen(server: http.Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, HOST, () => resolve())
  })
}

/**
 * The APIs and stand-ins behind the gateway, made once the bound URL is known.
 * STRIPE_SECRET_KEY set: the functions talk to Stripe, and STRIPE_WEBHOOK_SECRET must be Stripe's.
 * Unset: the local checkout plays Stripe and signs with the local secret.
 */
function createApis(ctx: BackendContext, functionsSecret: string, mailbox: Mailbox) {
  const { apiUrl, db } = ctx
  const stripeSecretKey = process.env.STRIPE_SECRET_KEY ?? ''
  const stripeWebhookSecret = process.env.STRIPE_WEBHOOK_SECRET || LOCAL_STRIPE_WEBHOOK_SECRET
  // Payouts (Stripe Connect) have their own webhook endpoint and so their own signing secret.
  const stripeConnectWebhookSecret = connectWebhookSecret()
  const functions = createFunctionsHandler(ctx, {
    env: {
      STRIPE_WEBHOOK_SECRET: stripeWebhookSecret,
      STRIPE_CONNECT_WEBHOOK_SECRET: stripeConnectWebhookSecret,
      // The scheduled functions accept the database's calls by this secret (it is Vault's functions_secret).
      FUNCTIONS_SECRET: functionsSecret,
      ...(stripeSecretKey ? { STRIPE_SECRET_KEY: stripeSecretKey } : {}),
    },
  })
  const checkout = createCheckoutHandler({ apiUrl, webhookSecret: stripeWebhookSecret, db })
  const connect = createConnectHandler({ apiUrl, webhookSecret: stripeConnectWebhookSecret, db })
  const esp = createEspHandler({
    db,
    mailboxUrl: mailbox.httpUrl,
    serviceKeys: [ctx.serviceRoleKey, ctx.secretKey],
  })
  mailbox.links.espUrl = `${apiUrl}/esp/`
  return { functions, checkout, connect, esp, stripeWebhookSecret, stripeConnectWebhookSecret }
}

type Running = {
  server: http.Server
  apis: ReturnType<typeof createApis>
  background: Background
  mailbox: Mailbox
  ctx: BackendContext
  /** The REST API: it listens for `notify pgrst` on a connection of its own. */
  rest: { close(): Promise<void> }
}

/** Stops everything once, in order: no new requests, webhooks in flight saved, jobs finished, then the database. */
async function stopBackend({ server, apis, background, mailbox, ctx, rest }: Running): Promise<void> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
  // Webhook attempts in flight save their outcome before the database closes.
  await Promise.allSettled([apis.checkout.close(), apis.connect.close()])
  // Jobs and requests in progress finish before the functions and the database go away.
  await background.close()
  await Promise.allSettled([apis.functions.close(), mailbox.close(), rest.close()])
  const mailer = ctx.mailer as { close?: () => void }
  mailer.close?.()
  await ctx.db.close()
}

/** What every API handler is given: the database, the config, the bound URL, the keys and the mailer. */
function backendContext(parts: {
  db: Db
  config: Config
  apiUrl: string
  keys: Awaited<ReturnType<typeof apiKeys>>
  smtpPort: number
  signingKey: SigningKey
}): BackendContext {
  const { db, config, apiUrl, keys, signingKey } = parts
  const smtp = { host: HOST, port: parts.smtpPort }
  return {
    db,
    config,
    apiUrl,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    publishableKey: keys.publishableKey,
    secretKey: keys.secretKey,
    smtp,
    mailer: createSmtpMailer(smtp),
    signingKey,
  }
}

/** pg_cron's jobs and pg_net's requests; if they cannot start, `stop` undoes the rest of the start first. */
async function startJobs(ctx: BackendContext, opts: BackendOptions, stop: () => Promise<void>): Promise<Background> {
  try {
    return await startBackground({
      db: ctx.db,
      apiUrl: ctx.apiUrl,
      timers: opts.cron ?? true,
      log: (line) => process.stderr.write(`${line}\n`),
    })
  } catch (error) {
    await stop()
    throw error
  }
}

/** The HTTP server with the gateway in front; `routes` is read per request (the APIs are made after listen). */
function createServer(config: Config, opts: BackendOptions, routes: () => Routes): http.Server {
  const log = opts.log ? (line: string) => process.stderr.write(`${line}\n`) : undefined
  const clientIpHeader = trustedHeaderName(opts.clientIpHeader ?? process.env.CLIENT_IP_HEADER)
  const server = http.createServer(
    createGateway({
      routes,
      log,
      clientIpHeader,
      openFunction: (name) => config.functions?.[name]?.verify_jwt === false,
    }),
  )
  server.keepAliveTimeout = 65_000
  return server
}

export async function startBackend(opts: BackendOptions = {}): Promise<Backend> {
  installCrashGuard()
  const port = opts.port ?? 54321
  let last = performance.now()
  const lap = () => {
    const now = performance.now()
    const ms = Math.round(now - last)
    last = now
    return ms
  }

  const { config, keys, mailbox, opened } = await startParts(opts)
  // The config, keys and mailbox start beside the database; only its steps are on the critical path.
  const phases: Record<string, number> = { ...opened.phases, database: lap() }
  const report = applyConfigOptions(config, opts)
  const { db } = opened
  let signingKey: SigningKey
  let functionsSecret: string
  try {
    ;[signingKey, functionsSecret] = await Promise.all([readSigningKey(config), ensureFunctionsSecret(db)])
    await opts.prepare?.(db)
  } catch (error) {
    await Promise.allSettled([mailbox.close(), db.close()])
    throw error
  }
  const rest = createRest(config, db)
  let routes: Routes | null = null
  const server = createServer(config, opts, () => routes!)
  // The schema cache loads while the server starts listening (REST requests wait for it, auth ones
  // need not): ~150 ms of the one-second budget for a start with an existing database.
  rest.reload().catch((error: unknown) => console.error('[backend] REST schema cache failed to load:', error))
  try {
    await listen(server, port)
  } catch (error) {
    await Promise.allSettled([mailbox.close(), rest.close(), db.close()])
    throw error
  }
  // Handlers are created synchronously after listen: they need the bound URL, and no request can be
  // accepted before this function yields to the event loop.
  const apiUrl = `http://${HOST}:${(server.address() as AddressInfo).port}`
  const ctx = backendContext({ db, config, apiUrl, keys, smtpPort: mailbox.smtpPort, signingKey })
  const apis = createApis(ctx, functionsSecret, mailbox)
  const { functions, checkout, connect, esp } = apis
  routes = { auth: createAuthHandler(ctx), rest, functions, checkout: withConnect(checkout, connect), esp }
  server.on('error', (error) => console.error('[backend] server error:', error))
  const background = await startJobs(ctx, opts, async () => {
    server.closeAllConnections()
    await Promise.allSettled([
      new Promise((resolve) => server.close(resolve)),
      functions.close(),
      mailbox.close(),
      rest.close(),
      db.close(),
    ])
  })

  phases.serve = lap()
  let closing: Promise<void> | null = null
  return {
    startup: { origin: opened.origin, phases },
    configReport: report,
    apiUrl,
    mailboxUrl: mailbox.httpUrl,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    publishableKey: keys.publishableKey,
    secretKey: keys.secretKey,
    functionsSecret,
    stripeWebhookSecret: apis.stripeWebhookSecret,
    stripeConnectWebhookSecret: apis.stripeConnectWebhookSecret,
    db,
    cron: { tick: (now) => background.tick(now), drainNet: () => background.drainNet() },
    reloadSchema: () => rest.reload(),
    close: () => (closing ??= stopBackend({ server, apis, background, mailbox, ctx, rest })),
  }
}

type Table = Record<string, unknown>
const isTable = (value: unknown): value is Table => typeof value === 'object' && value !== null && !Array.isArray(value)

/** `override` over `base`, table by table; values that are not tables (arrays too) replace. */
function mergeTables(base: Table, override: Table): Table {
  const merged: Table = { ...base }
  for (const [key, value] of Object.entries(override)) {
    const current = merged[key]
    merged[key] = isTable(current) && isTable(value) ? mergeTables(current, value) : value
  }
  return merged
}
