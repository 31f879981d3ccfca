/**
 * When the scheduler and the net worker run in a running backend (background.ts). Neither polls the database
 * while idle: the scheduler sleeps until the next job is due by what it last read of cron.job, and is woken
 * when cron.job changes (pg-cron-wake.sql); the worker sleeps until a request is queued (pg-net-wake.sql). Both
 * wake-ups are NOTIFYs on one channel, delivered at commit. A slow safety look covers a lost notification.
 * Without a wake-up (a Db that cannot LISTEN, a database whose trigger could not be installed) each polls as
 * it always did: the scheduler reads cron.job every tick, the worker drains the queue every `netPollMs`.
 */
import type { NetWorker } from './net-worker'
import type { Scheduler } from './scheduler'

/** The channel the wake-up triggers notify; the payload names the extension ('pg_cron', 'pg_net'). */
export const WAKE_CHANNEL = 'embedded_backend_wake'
/** The longest sleep between looks at the clock (no query): a wall-clock jump is noticed within it. */
export const CLOCK_LOOK_MS = 10_000
/** With wake-ups, cron.job is still re-read and the queue still drained at least this often. */
export const SAFETY_MS = 60_000

export type Wakes = { cron: boolean; net: boolean }

export type TimerOptions = {
  scheduler: Scheduler
  net: NetWorker
  /** Which wake-ups the database sends (their triggers are installed and someone listens). */
  wakes: Wakes
  tickMs: number
  netPollMs: number
  report: (error: unknown) => void
}

export type Timers = {
  /** A notification arrived ('' after the listening connection was re-opened: anything may have changed). */
  wake(payload: string): void
  stop(): void
}

export function startTimers(opts: TimerOptions): Timers {
  const scheduler = schedulerTimer(opts)
  const net = netTimer(opts)
  return {
    wake(payload) {
      if (payload !== 'pg_net') scheduler.check()
      if (payload !== 'pg_cron') net.drain()
    },
    stop() {
      scheduler.stop()
      net.stop()
    },
  }
}

/** One timer: set to the next due job (or the next look at the clock); the database is read only when due. */
function schedulerTimer({ scheduler, wakes, tickMs, report }: TimerOptions) {
  let timer: NodeJS.Timeout | undefined
  let checking = false
  let again = false
  let stopped = false
  // Never read yet: the first look reads cron.job (and marks runs a previous process left unfinished).
  let lastRead = 0

  const dueAt = () => {
    const next = scheduler.nextDue()
    return Math.min(next ?? Infinity, lastRead + SAFETY_MS)
  }
  const plan = (delay: number) => {
    if (stopped) return
    clearTimeout(timer)
    timer = setTimeout(onTimer, delay)
    timer.unref()
  }
  const planNext = () => {
    if (!wakes.cron) return plan(tickMs)
    const wait = dueAt() - Date.now()
    // A due job still waiting for its previous run is looked at each tick, as pg_cron's worker does.
    plan(wait <= 0 ? tickMs : Math.min(wait, CLOCK_LOOK_MS))
  }
  const onTimer = () => (!wakes.cron || Date.now() >= dueAt() ? check() : planNext())
  const check = () => {
    if (stopped) return
    if (checking) return void (again = true)
    checking = true
    again = false
    lastRead = Date.now()
    // Runs proceed in the background; the next look only waits for the check of what is due.
    scheduler
      .startDue()
      .then((runs) => runs.forEach((run) => run.catch(report)))
      .catch(report)
      .finally(() => {
        checking = false
        if (again) check()
        else planNext()
      })
  }

  plan(tickMs)
  return {
    check,
    stop() {
      stopped = true
      clearTimeout(timer)
    },
  }
}

/** The worker drains on each wake-up, plus a safety drain; without wake-ups it polls every `netPollMs`. */
function netTimer({ net, wakes, netPollMs, report }: TimerOptions) {
  const drain = () => void net.drain().catch(report)
  // What was queued before anyone listened (by a previous process, say) goes out now, not at the safety drain.
  if (wakes.net) drain()
  const timer = setInterval(drain, wakes.net ? SAFETY_MS : netPollMs)
  timer.unref()
  return { drain, stop: () => clearInterval(timer) }
}
