/**
 * When the running backend's scheduler and pg_net worker touch the database (timers.ts). An idle backend must
 * not query on every tick: it lives for a whole test file, `npm run dev` and the e2e stack, and each query per
 * second costs CPU the whole time. Fake timers and a fake database that counts what it is asked, so nothing
 * here depends on the machine's speed; the wake-up triggers themselves are tested on both engines in cron.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Db, Queryable, QueryResult } from '../db/database'
import { startBackground, type Background } from './background'
import { NetWorker } from './net-worker'
import type { Job } from './scheduler'
import { SAFETY_MS, WAKE_CHANNEL } from './timers'

const result = <T>(rows: T[]): QueryResult<T> => ({ rows, fields: [], affectedRows: rows.length })

/** Answers what startBackground, the scheduler and the net worker ask, counting the reads that matter. */
function fakeDb(opts: { listen: boolean; fail?: (sql: string) => boolean }) {
  const jobs: Job[] = []
  const counts = { jobReads: 0, drains: 0, runs: 0 }
  let notify: ((payload: string) => void) | null = null
  const answer = (sql: string): unknown[] => {
    if (opts.fail?.(sql)) throw new Error('connection lost')
    if (/is not null as cron/.test(sql)) return [{ cron: true, net: true, cron_wakes: true, net_wakes: true }]
    if (/as ok$/.test(sql.trim())) return [{ ok: true }]
    if (/from vault\.secrets/.test(sql)) return [{ id: '1' }]
    if (/from cron\.job\s/.test(sql) && /select jobid/.test(sql)) return (counts.jobReads++, jobs)
    if (/delete from net\.http_request_queue/.test(sql)) return (counts.drains++, [])
    if (/current_user as u/.test(sql)) return [{ u: 'postgres' }]
    if (/pg_backend_pid/.test(sql)) return [{ pid: 1 }]
    if (/insert into cron\.job_run_details/.test(sql)) return [{ runid: ++counts.runs }]
    return []
  }
  const q: Queryable = {
    query: async <T>(sql: string) => result(answer(sql) as T[]),
    exec: async () => {},
  }
  const db: Db = {
    kind: 'pglite',
    ...q,
    transaction: (fn) => fn(q),
    close: async () => {},
    ...(opts.listen
      ? {
          listen: async (channel: string, onNotify: (payload: string) => void) => {
            expect(channel).toBe(WAKE_CHANNEL)
            notify = onNotify
            return async () => void (notify = null)
          },
        }
      : {}),
  }
  const job = (schedule: string): Job => ({
    jobid: jobs.length + 1,
    schedule,
    command: 'select 1',
    username: 'postgres',
    jobname: null,
  })
  return { db, jobs, job, counts, notify: (payload: string) => notify?.(payload) }
}

const MINUTE = 60_000

describe('the scheduler and the net worker of a running backend', () => {
  let background: Background | undefined
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(new Date('2030-01-01T00:00:30Z'))
  })
  afterEach(async () => {
    await background?.close()
    background = undefined
    vi.useRealTimers()
  })
  const start = async (db: Db) => (background = await startBackground({ db, apiUrl: 'http://127.0.0.1:1' }))

  it('does not query while idle: over ten minutes only its first look and one safety look a minute', async () => {
    const fake = fakeDb({ listen: true })
    await start(fake.db)
    await vi.advanceTimersByTimeAsync(10 * MINUTE)
    // Polling (the scheduler each second, the worker every 500 ms) would be 600 reads and 1,200 drains.
    expect(SAFETY_MS).toBe(MINUTE)
    // cron.job at the first look (1 s) and at 61 s, 121 s … 541 s; the queue at start and at each minute.
    expect(fake.counts).toMatchObject({ jobReads: 10, drains: 11, runs: 0 })
  })

  it('runs a job on each due minute and reads cron.job only then', async () => {
    const fake = fakeDb({ listen: true })
    fake.jobs.push(fake.job('* * * * *'))
    await start(fake.db)
    await vi.advanceTimersByTimeAsync(29_999)
    expect(fake.counts).toMatchObject({ jobReads: 1, runs: 0 })
    await vi.advanceTimersByTimeAsync(1)
    expect(fake.counts).toMatchObject({ jobReads: 2, runs: 1 })
    await vi.advanceTimersByTimeAsync(9 * MINUTE)
    expect(fake.counts).toMatchObject({ jobReads: 11, runs: 10 })
  })

  it('runs an interval job every interval', async () => {
    const fake = fakeDb({ listen: true })
    fake.jobs.push(fake.job('5 seconds'))
    await start(fake.db)
    await vi.advanceTimersByTimeAsync(1000)
    expect(fake.counts.runs).toBe(1)
    await vi.advanceTimersByTimeAsync(MINUTE)
    expect(fake.counts).toMatchObject({ runs: 13, jobReads: 13 })
  })

  it('reads cron.job at once when it changes and drains the queue at once when a request is queued', async () => {
    const fake = fakeDb({ listen: true })
    await start(fake.db)
    await vi.advanceTimersByTimeAsync(5000)
    expect(fake.counts).toMatchObject({ jobReads: 1, drains: 1, runs: 0 })
    fake.jobs.push(fake.job('10 seconds'))
    fake.notify('pg_cron')
    await vi.advanceTimersByTimeAsync(0)
    // The new interval job runs at once, as pg_cron runs one.
    expect(fake.counts).toMatchObject({ jobReads: 2, drains: 1, runs: 1 })
    fake.notify('pg_net')
    await vi.advanceTimersByTimeAsync(0)
    expect(fake.counts).toMatchObject({ jobReads: 2, drains: 2 })
    // A re-opened listening connection may have missed anything: both look.
    fake.notify('')
    await vi.advanceTimersByTimeAsync(0)
    expect(fake.counts).toMatchObject({ jobReads: 3, drains: 3 })
  })

  it('polls as before when the database cannot wake it', async () => {
    const fake = fakeDb({ listen: false })
    await start(fake.db)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(fake.counts).toMatchObject({ jobReads: 10, drains: 20 })
  })
})

describe('the net worker', () => {
  it('goes on draining after a drain failed (the database away for a moment)', async () => {
    let failures = 1
    const fake = fakeDb({
      listen: false,
      fail: (sql) => /delete from net\.http_request_queue/.test(sql) && failures-- > 0,
    })
    const net = new NetWorker({ db: fake.db })
    await expect(net.drain()).rejects.toThrow('connection lost')
    await expect(net.drain()).resolves.toBe(0)
    expect(fake.counts.drains).toBe(1)
  })

  it('gives wake-ups that arrive before a drain begins that one drain, not one each', async () => {
    const fake = fakeDb({ listen: false })
    const net = new NetWorker({ db: fake.db })
    expect(await Promise.all([net.drain(), net.drain(), net.drain(), net.drain()])).toEqual([0, 0, 0, 0])
    expect(fake.counts.drains).toBe(1)
  })
})
