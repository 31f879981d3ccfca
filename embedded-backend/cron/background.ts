/**
 * The background work hosted Supabase's extensions do, started by the embedded backend (server.ts): the
 * pg_cron scheduler and the pg_net worker on timers, and the Vault secrets the jobs read to call this
 * backend's edge functions (project_url, functions_secret — on hosted Supabase the operator stores them,
 * see supabase/functions/README.md). Tests turn the timers off and drive `tick` and `drainNet` themselves.
 */
import { randomBytes } from 'node:crypto'
import type { Db } from '../db/database'
import { NetWorker } from './net-worker'
import { Scheduler, type JobRun } from './scheduler'

export type BackgroundOptions = {
  db: Db
  apiUrl: string
  /** Run the scheduler and the net worker on timers (default true). */
  timers?: boolean
  /** Scheduler tick in ms (pg_cron checks each second). */
  tickMs?: number
  /** How often the net worker looks for queued requests, in ms. */
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
  const net = new NetWorker({ db, log })
  const scheduler = new Scheduler({ db, log, afterRuns: () => void net.drain().catch(report) })
  function report(error: unknown) {
    log?.(`[cron] ${(error as Error).message}`)
  }

  const timers: NodeJS.Timeout[] = []
  let checking = false
  if (opts.timers !== false) {
    timers.push(
      setInterval(() => {
        if (checking) return
        checking = true
        // Runs proceed in the background; the next tick only waits for the check of what is due.
        scheduler
          .startDue()
          .then((runs) => runs.forEach((run) => run.catch(report)))
          .catch(report)
          .finally(() => (checking = false))
      }, opts.tickMs ?? 1000),
      setInterval(() => void net.drain().catch(report), opts.netPollMs ?? 500),
    )
    for (const t of timers) t.unref()
  }

  return {
    async tick(now) {
      const runs = await scheduler.tick(now)
      await net.drain()
      return runs
    },
    drainNet: () => net.drain(),
    async close() {
      for (const t of timers) clearInterval(t)
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
