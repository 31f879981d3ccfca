/**
 * The background work hosted Supabase's extensions do, started by the embedded backend (server.ts): the
 * pg_cron scheduler and the pg_net worker on timers, and the Vault secrets the jobs read to call this
 * backend's edge functions (project_url, service_role_key — on hosted Supabase the operator stores them,
 * see the README). Tests turn the timers off and drive `tick` and `drainNet` themselves.
 */
import type { Db } from '../db/database'
import { NetWorker } from './net-worker'
import { Scheduler, type JobRun } from './scheduler'

export type BackgroundOptions = {
  db: Db
  apiUrl: string
  serviceRoleKey: string
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

export async function startBackground(opts: BackgroundOptions): Promise<Background> {
  const { db, log } = opts
  await storeSecret(db, 'project_url', opts.apiUrl, 'The API URL of this project (written by supabase/local at start)')
  await storeSecret(
    db,
    'service_role_key',
    opts.serviceRoleKey,
    'The service-role key (written by supabase/local at start)',
  )
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
