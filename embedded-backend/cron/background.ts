/**
 * The background work hosted Supabase's extensions do, started by the embedded backend (server.ts): the
 * pg_cron scheduler and the pg_net worker on timers (timers.ts: idle, they sleep until a job is due or a request
 * is queued, woken by NOTIFY triggers this installs on databases made before them), and the Vault secrets the jobs read to call this
 * backend's edge functions (project_url, functions_secret — on hosted Supabase the operator stores them,
 * see supabase/functions/README.md). Tests turn the timers off and drive `tick` and `drainNet` themselves.
 */
import { randomBytes } from 'node:crypto'
import type { Db } from '../db/database'
import { NetWorker } from './net-worker'
import { wakeSql } from './extensions'
import { Scheduler, type JobRun } from './scheduler'
import { startTimers, WAKE_CHANNEL, type Timers, type Wakes } from './timers'

export type BackgroundOptions = {
  db: Db
  apiUrl: string
  /** Run the scheduler and the net worker on timers (default true). */
  timers?: boolean
  /**
   * Scheduler tick in ms (pg_cron checks each second): its first look, and how often it reads cron.job when
   * the database cannot wake it (timers.ts).
   */
  tickMs?: number
  /** How often the net worker looks for queued requests when the database cannot wake it, in ms. */
  netPollMs?: number
  log?: (line: string) => void
}

export type Background = {
  /** Runs the jobs due at `now` (default: the clock) and the requests they queued. */
  tick(now?: Date): Promise<JobRun[]>
  /** Performs every queued net request. */
  drainNet(): Promise<number>
  close(): Promise<void>
}

/**
 * The one credential the database sends the functions it calls (deliver-webhooks, deliver-esp, send-payouts,
 * send-notifications: header `x-functions-secret`, checked against their FUNCTIONS_SECRET), instead of the legacy
 * service-role JWT: it opens those four functions and nothing else. Random, made once per database and kept in
 * Vault as `functions_secret`, so a restart finds the same value; the backend hands it to the functions.
 */
export async function ensureFunctionsSecret(db: Db): Promise<string> {
  // The existing secret, or one made now (a restart must never replace it). Through Vault's own function: postgres
  // may read Vault but not insert into vault.secrets, as on hosted. Two starts racing: the second finds the first's.
  const existing = async () =>
    (await db.query<{ secret: string }>("select secret from vault.secrets where name = 'functions_secret'")).rows[0]
      ?.secret
  const found = await existing()
  if (found) return found
  const secret = randomBytes(32).toString('base64url')
  try {
    await db.query("select vault.create_secret($1, 'functions_secret', $2)", [
      secret,
      'Sent by pg_net to the scheduled functions as x-functions-secret',
    ])
    return secret
  } catch (error) {
    const raced = (error as { code?: string }).code === '23505' ? await existing() : undefined
    if (raced) return raced
    throw error
  }
}

export async function startBackground(opts: BackgroundOptions): Promise<Background> {
  const { db, log } = opts
  await storeSecret(
    db,
    'project_url',
    opts.apiUrl,
    'The API URL of this project (written by embedded-backend at start)',
  )
  // Databases made before functions_secret kept the legacy service-role JWT here; nothing reads it any more.
  await db.query("delete from vault.secrets where name = 'service_role_key'")
  // Local development by definition: webhook endpoints may also be http://127.0.0.1 (see the webhooks migration).
  await db.query('update private.settings set allow_loopback_webhooks = true')
  const report = (error: unknown) => log?.(`[cron] ${(error as Error).message}`)
  const wakes: Wakes = opts.timers === false ? { cron: false, net: false } : await installWakeUps(db, report)
  const net = new NetWorker({ db, log })
  // Without the queue's wake-up, the worker sends what the jobs queued as soon as they finish.
  const afterRuns = () => void (wakes.net ? undefined : net.drain().catch(report))
  const scheduler = new Scheduler({ db, log, afterRuns })
  const timed = opts.timers === false ? null : await startTimed(opts, { scheduler, net, wakes, report })

  return {
    async tick(now) {
      const runs = await scheduler.tick(now)
      await net.drain()
      return runs
    },
    drainNet: () => net.drain(),
    async close() {
      timed?.timers.stop()
      await timed?.unlisten?.().catch(report)
      // A job in progress finishes (commits or rolls back) before the database closes: nothing half-done.
      await scheduler.idle()
      await net.idle()
    },
  }
}

/**
 * Writes a named Vault secret through Vault's own functions, as an operator does on hosted (postgres may read and
 * delete secrets but not insert into vault.secrets).
 */
async function storeSecret(db: Db, name: string, secret: string, description: string) {
  const found = await db.query<{ id: string }>('select id from vault.secrets where name = $1', [name])
  const id = found.rows[0]?.id
  if (id) await db.query('select vault.update_secret($1, $2)', [id, secret])
  else await db.query('select vault.create_secret($1, $2, $3)', [secret, name, description])
}

/**
 * Which wake-up triggers the database has (pg-cron-wake.sql, pg-net-wake.sql), installing them on a database
 * whose pg_cron/pg_net emulation predates them. One that cannot be installed leaves its worker polling as before.
 */
async function installWakeUps(db: Db, report: (error: unknown) => void): Promise<Wakes> {
  const found = (
    await db.query<{ cron: boolean; net: boolean; cron_wakes: boolean; net_wakes: boolean }>(
      `select to_regclass('cron.job') is not null as cron, to_regclass('net.http_request_queue') is not null as net,
         exists (select from pg_catalog.pg_trigger
                 where tgrelid = to_regclass('cron.job') and tgname = 'wake_scheduler') as cron_wakes,
         exists (select from pg_catalog.pg_trigger
                 where tgrelid = to_regclass('net.http_request_queue') and tgname = 'wake_worker') as net_wakes`,
    )
  ).rows[0]!
  const install = async (installed: boolean, present: boolean, name: 'pg_cron' | 'pg_net') => {
    if (installed || !present) return installed
    try {
      await db.exec(wakeSql(name))
      return true
    } catch (error) {
      report(error)
      return false
    }
  }
  return {
    cron: await install(found.cron_wakes, found.cron, 'pg_cron'),
    net: await install(found.net_wakes, found.net, 'pg_net'),
  }
}

/** Listens for the wake-ups and starts the timers; without a listener, both poll as before. */
async function startTimed(
  opts: BackgroundOptions,
  parts: { scheduler: Scheduler; net: NetWorker; wakes: Wakes; report: (error: unknown) => void },
): Promise<{ timers: Timers; unlisten: (() => Promise<void>) | null }> {
  const { wakes, report } = parts
  let timers: Timers | null = null
  let unlisten: (() => Promise<void>) | null = null
  if ((wakes.cron || wakes.net) && opts.db.listen) {
    try {
      unlisten = await opts.db.listen(WAKE_CHANNEL, (payload) => timers?.wake(payload))
    } catch (error) {
      report(error)
    }
  }
  if (!unlisten) wakes.cron = wakes.net = false
  timers = startTimers({ ...parts, tickMs: opts.tickMs ?? 1000, netPollMs: opts.netPollMs ?? 500 })
  return { timers, unlisten }
}
