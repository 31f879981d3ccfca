/**
 * The embedded backend's commands: `start` (npm run backend), `reset` (npm run db:reset) and `types`
 * (npm run db:types). A pid file in supabase/.local keeps `reset` from deleting the database folder
 * under a running backend.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import v8 from 'node:v8'
import { ensureAuthSchema } from './auth/index'
import { envLocalPath, writeEnvLocal } from './config'
import { supabaseDir } from './db/migrate'
import { openBackendDb } from './db/open-backend-db'
import { localStateDir, migratedSnapshotFile } from './db/snapshot'
import { DEFAULT_DATA_DIR, startBackend, type Backend } from './server'

const pidFile = path.join(localStateDir, 'backend.pid')

/** Overrides for running a second backend beside the developer's (ports and folder); unset in normal use. */
const env = {
  port: process.env.BACKEND_PORT ? Number(process.env.BACKEND_PORT) : undefined,
  mailPort: process.env.MAILBOX_PORT ? Number(process.env.MAILBOX_PORT) : undefined,
  smtpPort: process.env.SMTP_PORT ? Number(process.env.SMTP_PORT) : undefined,
  dataDir: process.env.BACKEND_DATA_DIR ? path.resolve(process.env.BACKEND_DATA_DIR) : DEFAULT_DATA_DIR,
}

export function envFor(
  backend: Pick<
    Backend,
    | 'apiUrl'
    | 'anonKey'
    | 'serviceRoleKey'
    | 'publishableKey'
    | 'secretKey'
    | 'stripeWebhookSecret'
    | 'stripeConnectWebhookSecret'
  >,
) {
  return {
    VITE_SUPABASE_URL: backend.apiUrl,
    // What the SPA sends as apikey; the legacy anon JWT stays for tools that read the old name.
    VITE_SUPABASE_PUBLISHABLE_KEY: backend.publishableKey,
    VITE_SUPABASE_ANON_KEY: backend.anonKey,
    // Server-side keys: never VITE_-prefixed, so Vite never bundles them.
    SUPABASE_SECRET_KEY: backend.secretKey,
    SUPABASE_SERVICE_ROLE_KEY: backend.serviceRoleKey,
    // What the payments webhook verifies; locally the test checkout signs its events with it.
    STRIPE_WEBHOOK_SECRET: backend.stripeWebhookSecret,
    // What the connect webhook verifies; locally the Connect stand-in (payouts) signs its events with it.
    STRIPE_CONNECT_WEBHOOK_SECRET: backend.stripeConnectWebhookSecret,
  }
}

export function banner(backend: Backend): string {
  return [
    '',
    `  API URL          ${backend.apiUrl}`,
    `  Mailbox          ${backend.mailboxUrl}`,
    `  ESP sandbox      ${backend.apiUrl}/esp/`,
    `  Publishable key  ${backend.publishableKey}`,
    `  Secret key       ${backend.secretKey}`,
    `  anon key         ${backend.anonKey} (legacy)`,
    `  service_role key ${backend.serviceRoleKey} (legacy)`,
    `  Payments         ${process.env.STRIPE_SECRET_KEY ? 'Stripe (STRIPE_SECRET_KEY)' : `local test checkout at ${backend.apiUrl}/checkout`}`,
    `  Payouts          ${process.env.STRIPE_SECRET_KEY ? 'Stripe Connect (STRIPE_SECRET_KEY)' : `local Stripe Connect at ${backend.apiUrl}/checkout/connect`}`,
    `  Database         ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : path.relative(process.cwd(), env.dataDir)}`,
    `  Keys written to  ${path.relative(process.cwd(), envLocalPath)}`,
    '',
  ].join('\n')
}

/**
 * CPU time of the main thread alone (Linux), without V8's background compilers: on an idle machine with
 * a core to spare they run beside it, so this is what bounds the start's wall time there.
 */
async function mainThreadCpuMs(): Promise<number | null> {
  const stat = await readFile(`/proc/self/task/${process.pid}/stat`, 'utf8').catch(() => null)
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ')
  return fields ? (Number(fields[11]) + Number(fields[12])) * 10 : null // utime + stime, in ticks of 10 ms
}

const ORIGINS: Record<Backend['startup']['origin'], string> = {
  existing: 'existing database',
  'migrated-dump': 'new database from the migrated dump (npm install or an earlier start made it)',
  'unseeded-dump': 'new database from the migrated dump without the seed, seeded now',
  'initdb-template': "new database from npm install's initdb template",
  'initdb-dump': 'new database from the cached initdb dump',
  initdb: 'new database, initdb',
}

/** "new database from …: open 850 ms, migrations 700 ms, …" */
export function describeStartup({ origin, phases }: Backend['startup']): string {
  const steps = Object.entries(phases)
    .filter(([name, ms]) => name !== 'database' && ms >= 50)
    .map(([name, ms]) => `${name} ${ms} ms`)
  return `${ORIGINS[origin]}${steps.length ? `: ${steps.join(', ')}` : ''}`
}

async function runningPid(): Promise<number | null> {
  const pid = Number(await readFile(pidFile, 'utf8').catch(() => ''))
  if (!pid || pid === process.pid) return null
  try {
    process.kill(pid, 0)
    return pid
  } catch {
    return null
  }
}

/**
 * PGlite (Postgres in WebAssembly) runs on V8's baseline compiler only in these commands. A start runs
 * several thousand different Postgres functions a few times each (catalog reads, DDL, the seed): V8's
 * optimising tier-up compiled them in the background for ~2 s of CPU on this 2-core machine, more than
 * it saved (a first start 4.2 → 2.3 s of CPU for copying, opening, migrating and seeding). The price is
 * ~15% more CPU per query afterwards (0.73 → 0.86 ms for a small REST select), which a developer's
 * server does not notice. Tests, benchmarks and the e2e stack call startBackend and keep the default.
 * BACKEND_WASM_TIERUP=1 keeps it here too. Must run before the first PGlite is created (compiled).
 */
export function preferBaselineWasm() {
  if (process.env.BACKEND_WASM_TIERUP !== '1') v8.setFlagsFromString('--liftoff-only')
}

/** Starts the backend for a long-running command and stops it cleanly on Ctrl-C or SIGTERM. */
export async function startForeground(onStop?: () => Promise<void>): Promise<Backend> {
  const other = await runningPid()
  if (other) throw new Error(`Another backend (pid ${other}) is using the local database; stop it first.`)
  preferBaselineWasm()
  const started = performance.now()
  const backend = await startBackend({ ...env, log: process.env.BACKEND_LOG === '1' })
  await mkdir(localStateDir, { recursive: true })
  await writeFile(pidFile, String(process.pid))
  await writeEnvLocal(envLocalPath, envFor(backend))
  console.log(banner(backend))
  const readyMs = Math.round(performance.now() - started)
  console.log(`  Ready in ${(readyMs / 1000).toFixed(2)} s (${describeStartup(backend.startup)}). Ctrl-C stops it.\n`)
  // For the benchmark: the start-up steps as one JSON line.
  if (process.env.BACKEND_TIMING === '1') {
    const cpu = process.cpuUsage()
    const processMs = Math.round(process.uptime() * 1000)
    const cpuMs = Math.round((cpu.user + cpu.system) / 1000)
    const rssMb = Math.round(process.memoryUsage().rss / 1e6)
    console.log(
      `startup-timing ${JSON.stringify({ ...backend.startup, readyMs, processMs, cpuMs, mainThreadCpuMs: await mainThreadCpuMs(), rssMb })}`,
    )
  }
  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    await onStop?.().catch(() => {})
    await backend.close().catch((e) => console.error(e))
    await rm(pidFile, { force: true })
    process.exit(0)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  return backend
}

async function reset() {
  const other = await runningPid()
  if (other) throw new Error(`A backend (pid ${other}) is running on the local database; stop it before resetting.`)
  preferBaselineWasm()
  // The seed runs again rather than coming from the seeded dump: the demo data's dates are relative to when
  // seed.sql ran, so a reset brings them up to today (and the new dump serves the next new database).
  await rm(await migratedSnapshotFile(true), { force: true })
  const { db, migration, fromSnapshot, dumpSaved } = await openBackendDb({
    dataDir: env.dataDir,
    databaseUrl: process.env.DATABASE_URL,
    reset: true,
    seed: true,
    afterBootstrap: ensureAuthSchema,
  })
  await dumpSaved
  await db.close()
  const how = fromSnapshot
    ? 'from the migrated build of the same migrations'
    : `${migration.applied.length} migrations applied`
  console.log(`Database rebuilt: ${how}${migration.seeded ? ', seed.sql loaded' : ''}.`)
}

/** Types come from a fresh in-memory database built from the migrations, so they match the files. */
async function types() {
  const { db } = await openBackendDb({
    databaseUrl: process.env.DATABASE_URL,
    seed: false,
    afterBootstrap: ensureAuthSchema,
  })
  const out = path.join(supabaseDir, '..', 'src', 'types', 'database.types.ts')
  // Imported here: it loads prettier (~0.2 s), which starting the backend does not need.
  const { generateTypes } = await import('./db/types')
  const { writeSchemaFiles, schemasDir } = await import('./db/schema-files')
  let schemaFiles: string[]
  try {
    await writeFile(out, await generateTypes(db))
    schemaFiles = await writeSchemaFiles(db)
  } finally {
    await db.close()
  }
  console.log(`Wrote ${path.relative(process.cwd(), out)}`)
  console.log(
    `Wrote ${schemaFiles.length} files in ${path.relative(process.cwd(), schemasDir)}/ (the schema's current state, by domain)`,
  )
}

const commands: Record<string, () => Promise<unknown>> = { start: () => startForeground(), reset, types }

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)
if (isMain) {
  const name = process.argv[2] ?? 'start'
  const command = commands[name]
  if (!command) {
    console.error(`Usage: tsx embedded-backend/cli.ts <start|reset|types>`)
    process.exit(2)
  }
  command().then(
    () => {
      if (name !== 'start') process.exit(0)
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error)
      process.exit(1)
    },
  )
}
