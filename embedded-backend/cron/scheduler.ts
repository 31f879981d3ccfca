/**
 * pg_cron's background worker, inside the embedded backend: every tick it reads the active jobs of
 * cron.job, starts the due ones — each in its own transaction, as the job's user — and records every run
 * in cron.job_run_details (status running → succeeded | failed, return_message, start_time, end_time).
 * A failing job rolls back only itself and is recorded; the others run regardless. As in pg_cron, one job
 * never runs twice at once: a run that comes due while the previous one is still going starts after it.
 */
import type { Db } from '../db/database'
import { parseSchedule, type Schedule } from './schedule'
import { commandTag, splitStatements } from './statements'

export type Job = { jobid: number; schedule: string; command: string; username: string; jobname: string | null }
export type JobRun = {
  jobid: number
  jobname: string | null
  runid: number
  status: 'succeeded' | 'failed'
  message: string
}

export type SchedulerOptions = {
  db: Db
  /** Called after jobs ran (the net worker sends what they queued at once). */
  afterRuns?: () => void
  log?: (line: string) => void
}

type JobState = { schedule: string; parsed: Schedule | null; next: Date | null }

export class Scheduler {
  private readonly states = new Map<number, JobState>()
  private readonly running = new Map<number, Promise<JobRun>>()
  private ready = false
  private firstTick = true
  private owner: string | null = null

  constructor(private readonly opts: SchedulerOptions) {}

  /**
   * Starts every job due at `now` and resolves when those runs have finished. Tests call it with a chosen
   * time; the backend's timer calls it each second with the clock.
   */
  async tick(now: Date = new Date()): Promise<JobRun[]> {
    return Promise.all(await this.startDue(now))
  }

  /** Resolves when every run in progress has finished (the backend waits for this before it closes). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.running.values()])
  }

  /**
   * When the scheduler next has something to do, by what it last read of cron.job: the earliest time a job
   * comes due (in the past while a due job waits for its previous run), or null when none ever will (no jobs,
   * or only @reboot ones that already ran). The backend's timer sleeps until then (timers.ts).
   */
  nextDue(): number | null {
    let next: number | null = null
    for (const { next: at } of this.states.values())
      if (at && (next === null || at.getTime() < next)) next = at.getTime()
    return next
  }

  /** Starts the jobs due at `now` without waiting for them; resolves with their runs. */
  async startDue(now: Date = new Date()): Promise<Promise<JobRun>[]> {
    if (!(await this.isReady())) return []
    const { db } = this.opts
    if (this.firstTick) {
      // Runs a previous process left unfinished were rolled back with it; say so, as pg_cron does at start.
      await db.query(
        `update cron.job_run_details set status = 'failed', return_message = 'server restarted', end_time = coalesce(end_time, now())
         where status in ('starting', 'running', 'connecting', 'sending')`,
      )
    }
    const jobs = (
      await db.query<Job>(
        `select jobid::int as jobid, schedule, command, username, jobname from cron.job
         where active and database = current_database() order by jobid`,
      )
    ).rows
    const seen = new Set<number>()
    const started: Promise<JobRun>[] = []
    for (const job of jobs) {
      seen.add(job.jobid)
      const state = this.stateOf(job, now)
      if (!state.next || now < state.next || this.running.has(job.jobid)) continue
      state.next = nextAfter(state.parsed, now)
      const run = this.run(job).finally(() => this.running.delete(job.jobid))
      this.running.set(job.jobid, run)
      started.push(run)
    }
    for (const id of this.states.keys()) if (!seen.has(id)) this.states.delete(id)
    this.firstTick = false
    if (started.length > 0 && this.opts.afterRuns) {
      void Promise.allSettled(started).then(() => this.opts.afterRuns?.())
    }
    return started
  }

  private stateOf(job: Job, now: Date): JobState {
    let state = this.states.get(job.jobid)
    if (state && state.schedule === job.schedule) return state
    let parsed: Schedule | null = null
    try {
      parsed = parseSchedule(job.schedule)
    } catch (error) {
      this.opts.log?.(
        `[cron] job ${job.jobid} has a schedule the scheduler cannot read (${job.schedule}): ${(error as Error).message}`,
      )
    }
    // A new cron job first runs at its next matching minute; an interval job at once (pg_cron counts its
    // interval from the previous start); an @reboot job only when the scheduler starts.
    const next =
      parsed === null
        ? null
        : parsed.kind === 'interval'
          ? now
          : parsed.kind === 'reboot'
            ? this.firstTick
              ? now
              : null
            : parsed.next(now)
    state = { schedule: job.schedule, parsed, next }
    this.states.set(job.jobid, state)
    return state
  }

  private async run(job: Job): Promise<JobRun> {
    const { db } = this.opts
    this.owner ??= (await db.query<{ u: string }>('select current_user as u')).rows[0]!.u
    const details = await db.query<{ runid: number }>(
      `insert into cron.job_run_details (jobid, database, username, command, status, start_time)
       values ($1, current_database(), $2, $3, 'running', clock_timestamp()) returning runid::int as runid`,
      [job.jobid, job.username, job.command],
    )
    const runid = details.rows[0]!.runid
    let pid: number | null = null
    let status: JobRun['status'] = 'succeeded'
    let message = ''
    try {
      message = await db.transaction(async (tx) => {
        pid = (await tx.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid
        if (job.username !== this.owner) await tx.exec(`set local role ${quoteIdent(job.username)}`)
        let last = ''
        for (const statement of splitStatements(job.command)) {
          const r = await tx.query(statement)
          const returnsRows = r.fields.length > 0
          last = commandTag(statement, returnsRows ? r.rows.length : r.affectedRows, returnsRows)
        }
        return last
      })
    } catch (error) {
      status = 'failed'
      message = (error as Error).message
      this.opts.log?.(`[cron] job ${job.jobname ?? job.jobid} failed: ${message}`)
    }
    await db
      .query(
        `update cron.job_run_details set job_pid = $2, status = $3, return_message = $4, end_time = clock_timestamp()
         where runid = $1`,
        [runid, pid, status, message],
      )
      .catch((error: unknown) => this.opts.log?.(`[cron] could not record run ${runid}: ${(error as Error).message}`))
    return { jobid: job.jobid, jobname: job.jobname, runid, status, message }
  }

  private async isReady(): Promise<boolean> {
    if (this.ready) return true
    const r = await this.opts.db.query<{ ok: boolean }>("select to_regclass('cron.job') is not null as ok")
    this.ready = r.rows[0]?.ok === true
    return this.ready
  }
}

function nextAfter(parsed: Schedule | null, now: Date): Date | null {
  if (!parsed || parsed.kind === 'reboot') return null
  if (parsed.kind === 'interval') return new Date(now.getTime() + parsed.seconds * 1000)
  return parsed.next(now)
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}
