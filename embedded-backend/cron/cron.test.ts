/**
 * The local pg_cron and pg_net (embedded-backend/cron): the SQL interface the real extensions define, the
 * scheduler that runs due jobs each in its own transaction and records every run, and the worker that
 * performs queued HTTP requests. On PGlite and, when TEST_DATABASE_URL is set, on PostgreSQL.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBackground } from './background'
import type { JobRun } from './scheduler'
import { withLocalExtensions } from './extensions'
import { WAKE_CHANNEL } from './timers'
import { engines, startTestBackend, type TestBackend } from '../testing/rest-fixture'

const SETUP = `
  create table public.cron_probe (id serial primary key, note text not null, at timestamptz default now());
`
const minute = (t: Date, n: number) => new Date(t.getTime() + n * 60_000)
/** The runs of this file's own jobs (the migrations schedule the product's jobs in the same database). */
const probes = (runs: JobRun[]) => runs.filter((r) => r.jobname?.startsWith('probe-'))

describe.each(engines)('local pg_cron and pg_net on %s', (engine) => {
  let backend: TestBackend
  let receiver: http.Server
  let receiverUrl = ''
  const received: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = []

  beforeAll(async () => {
    backend = await startTestBackend(engine, SETUP, { cron: false })
    // The migrations may already have installed them; `create extension if not exists` is idempotent.
    await backend.db.exec(
      withLocalExtensions(
        'create extension if not exists pg_cron with schema pg_catalog;\ncreate extension if not exists "pg_net" with schema extensions;',
      ),
    )
    receiver = http.createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => {
        received.push({ method: req.method!, url: req.url!, headers: req.headers, body })
        if (req.url?.startsWith('/slow')) return // never answers: the request times out
        res.writeHead(req.url?.startsWith('/missing') ? 404 : 200, {
          'content-type': 'application/json',
          'x-probe': 'yes',
        })
        res.end(JSON.stringify({ ok: true, echo: body }))
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    if (receiver) {
      receiver.closeAllConnections()
      await new Promise((resolve) => receiver.close(resolve))
    }
    await backend?.close()
  })

  const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    (await backend.db.query<T>(sql, params)).rows
  const errorOf = async (sql: string) => {
    try {
      await backend.db.query(sql)
      return ''
    } catch (error) {
      return (error as Error).message
    }
  }
  const runsOf = (jobid: number) =>
    q<{ status: string; return_message: string; start_time: Date; end_time: Date; job_pid: number | null }>(
      'select status, return_message, start_time, end_time, job_pid from cron.job_run_details where jobid = $1 order by runid',
      [jobid],
    )

  it('gives the tables and functions pg_cron 1.6 defines, and refuses a schedule it cannot read', async () => {
    const columns = await q<{ table_name: string; cols: string }>(
      `select table_name, string_agg(column_name, ',' order by ordinal_position) as cols from information_schema.columns
       where table_schema = 'cron' group by table_name order by table_name`,
    )
    expect(columns).toEqual([
      { table_name: 'job', cols: 'jobid,schedule,command,nodename,nodeport,database,username,active,jobname' },
      {
        table_name: 'job_run_details',
        cols: 'jobid,runid,job_pid,database,username,command,status,return_message,start_time,end_time',
      },
    ])
    expect(await errorOf("select cron.schedule('bad', 'every minute', 'select 1')")).toBe(
      'invalid schedule: every minute',
    )
    expect(await errorOf("select cron.schedule('bad', '61 seconds', 'select 1')")).toBe('invalid schedule: 61 seconds')
    expect(await errorOf("select cron.unschedule('no-such-job')")).toBe(
      "could not find valid entry for job 'no-such-job'",
    )
  })

  it('schedules by name once (a second call updates the job), alters and unschedules it', async () => {
    const [a] = await q<{ id: string }>("select cron.schedule('probe-upsert', '*/5 * * * *', 'select 1') as id")
    const [b] = await q<{ id: string }>("select cron.schedule('probe-upsert', '0 3 * * *', 'select 2') as id")
    expect(b!.id).toBe(a!.id)
    expect(await q("select schedule, command, active from cron.job where jobname = 'probe-upsert'")).toEqual([
      { schedule: '0 3 * * *', command: 'select 2', active: true },
    ])
    await q('select cron.alter_job($1, active => false)', [a!.id])
    expect(
      (await q<{ active: boolean }>("select active from cron.job where jobname = 'probe-upsert'"))[0]!.active,
    ).toBe(false)
    expect(await q("select cron.unschedule('probe-upsert') as ok")).toEqual([{ ok: true }])
    expect(await q("select 1 from cron.job where jobname = 'probe-upsert'")).toEqual([])
  })

  it('runs a job when its minute comes, in its own transaction, and records the run', async () => {
    const [{ id }] = (await q<{ id: string }>(
      "select cron.schedule('probe-minute', '* * * * *', $$insert into public.cron_probe (note) values ('minute')$$) as id",
    )) as [{ id: string }]
    const t0 = new Date('2030-01-01T10:00:30Z')
    expect(probes(await backend.cron.tick(t0))).toEqual([]) // seen for the first time: due at 10:01
    expect(probes(await backend.cron.tick(new Date('2030-01-01T10:00:59Z')))).toEqual([])
    const runs = probes(await backend.cron.tick(new Date('2030-01-01T10:01:00Z')))
    expect(runs.map((r) => [r.jobname, r.status, r.message])).toEqual([['probe-minute', 'succeeded', 'INSERT 0 1']])
    expect(probes(await backend.cron.tick(new Date('2030-01-01T10:01:30Z')))).toEqual([]) // once per minute
    expect(await q("select count(*)::int as n from public.cron_probe where note = 'minute'")).toEqual([{ n: 1 }])
    const [run] = await runsOf(Number(id))
    expect(run).toMatchObject({ status: 'succeeded', return_message: 'INSERT 0 1' })
    expect(run!.end_time.getTime()).toBeGreaterThanOrEqual(run!.start_time.getTime())
    expect(run!.job_pid).not.toBeNull()
    await q("select cron.unschedule('probe-minute')")
  })

  it('records a failing job as failed, rolls back what it did, and still runs the others', async () => {
    const [{ id: bad }] = (await q<{ id: string }>(
      `select cron.schedule('probe-fails', '* * * * *', $$insert into public.cron_probe (note) values ('half-done'); select 1 / 0$$) as id`,
    )) as [{ id: string }]
    const [{ id: good }] = (await q<{ id: string }>(
      `select cron.schedule('probe-works', '* * * * *', $$select note from public.cron_probe$$) as id`,
    )) as [{ id: string }]
    const t0 = new Date('2030-02-01T08:00:10Z')
    await backend.cron.tick(t0)
    const runs = probes(await backend.cron.tick(minute(t0, 1)))
    expect(runs.map((r) => [r.jobname, r.status]).sort()).toEqual([
      ['probe-fails', 'failed'],
      ['probe-works', 'succeeded'],
    ])
    expect(await runsOf(Number(bad))).toMatchObject([{ status: 'failed', return_message: 'division by zero' }])
    expect((await runsOf(Number(good)))[0]!.return_message).toMatch(/^\d+ rows?$/)
    expect(await q("select count(*)::int as n from public.cron_probe where note = 'half-done'")).toEqual([{ n: 0 }])
    // The next minute it is tried again (and recorded again).
    await backend.cron.tick(minute(t0, 2))
    expect(await runsOf(Number(bad))).toHaveLength(2)
    await q("select cron.unschedule('probe-fails'), cron.unschedule('probe-works')")
  })

  it("runs '[1-59] seconds' jobs at once and then every interval", async () => {
    const [{ id }] = (await q<{ id: string }>(
      "select cron.schedule('probe-seconds', '10 seconds', $$insert into public.cron_probe (note) values ('seconds')$$) as id",
    )) as [{ id: string }]
    const t0 = new Date('2030-03-01T00:00:00Z')
    expect(probes(await backend.cron.tick(t0))).toHaveLength(1)
    expect(probes(await backend.cron.tick(new Date(t0.getTime() + 9_000)))).toHaveLength(0)
    expect(probes(await backend.cron.tick(new Date(t0.getTime() + 10_000)))).toHaveLength(1)
    expect(await runsOf(Number(id))).toHaveLength(2)
    await q("select cron.unschedule('probe-seconds')")
  })

  it('runs jobs on its own timer when the backend runs it', async () => {
    await q(
      "select cron.schedule('probe-timer', '1 seconds', $$insert into public.cron_probe (note) values ('timer')$$)",
    )
    const background = await startBackground({
      db: backend.db,
      apiUrl: backend.apiUrl,
      tickMs: 50,
    })
    try {
      await expect
        .poll(
          async () =>
            (await q<{ n: number }>("select count(*)::int as n from public.cron_probe where note = 'timer'"))[0]!.n,
          { timeout: 5000 },
        )
        .toBeGreaterThanOrEqual(2)
    } finally {
      await q("select cron.unschedule('probe-timer')")
      await background.close()
    }
    const [job] = await q<{ jobid: string }>(
      "select jobid from cron.job_run_details where command like '%''timer''%' limit 1",
    )
    expect(job).toBeDefined()
  })

  it('wakes the backend when a request is queued or cron.job changes (NOTIFY at commit)', async () => {
    const payloads: string[] = []
    const unlisten = await backend.db.listen!(WAKE_CHANNEL, (payload) => payloads.push(payload))
    try {
      await q(`select net.http_get('http://127.0.0.1:9/never-sent')`)
      await q("select cron.schedule('probe-wake', '* * * * *', 'select 1')")
      await expect.poll(() => payloads).toEqual(expect.arrayContaining(['pg_net', 'pg_cron']))
    } finally {
      await unlisten()
      await q("select cron.unschedule('probe-wake')")
      await q('delete from net.http_request_queue')
    }
  })

  it('sends a queued request on its wake-up, and installs the wake-up on a database made before it', async () => {
    await q('drop trigger wake_worker on net.http_request_queue')
    // Polls so slow that only the wake-up can send the request while the test waits.
    const background = await startBackground({
      db: backend.db,
      apiUrl: backend.apiUrl,
      tickMs: 3_600_000,
      netPollMs: 3_600_000,
    })
    try {
      await q(`select net.http_post($1 || '/woken', '{}'::jsonb)`, [receiverUrl])
      await expect.poll(() => received.some((r) => r.url.startsWith('/woken')), { timeout: 5000 }).toBe(true)
    } finally {
      await background.close()
    }
  })

  it('performs queued requests after commit and stores each answer under the request id', async () => {
    const [{ id }] = (await q<{ id: string }>(
      `select net.http_post($1 || '/hook', '{"hello":"world"}'::jsonb, '{"a":"1 2"}'::jsonb,
         '{"Content-Type":"application/json","Authorization":"Bearer probe"}'::jsonb) as id`,
      [receiverUrl],
    )) as [{ id: string }]
    const [{ id: getId }] = (await q<{ id: string }>(`select net.http_get($1 || '/missing') as id`, [receiverUrl])) as [
      { id: string },
    ]
    expect(await backend.cron.drainNet()).toBe(2)
    const post = received.find((r) => r.url.startsWith('/hook'))!
    expect(post).toMatchObject({ method: 'POST', url: '/hook?a=1%202', body: '{"hello": "world"}' })
    expect(post.headers.authorization).toBe('Bearer probe')
    const [answer] = await q<{
      status_code: number
      content_type: string
      content: string
      timed_out: boolean
      headers: Record<string, string>
    }>('select status_code, content_type, content, timed_out, headers from net._http_response where id = $1', [id])
    expect(answer).toMatchObject({ status_code: 200, content_type: 'application/json', timed_out: false })
    expect(answer!.headers['x-probe']).toBe('yes')
    expect(JSON.parse(answer!.content)).toEqual({ ok: true, echo: '{"hello": "world"}' })
    expect(await q('select status_code from net._http_response where id = $1', [getId])).toEqual([{ status_code: 404 }])
    expect(await q('select count(*)::int as n from net.http_request_queue')).toEqual([{ n: 0 }])
  })

  it('records timeouts and unreachable hosts, and never sends a request whose transaction rolled back', async () => {
    const [{ id: slow }] = (await q<{ id: string }>(
      `select net.http_get($1 || '/slow', timeout_milliseconds => 200) as id`,
      [receiverUrl],
    )) as [{ id: string }]
    const [{ id: refused }] = (await q<{ id: string }>(
      `select net.http_get('http://127.0.0.1:9/nothing-listens') as id`,
    )) as [{ id: string }]
    await backend.db
      .transaction(async (tx) => {
        await tx.query(`select net.http_post($1 || '/rolled-back')`, [receiverUrl])
        throw new Error('roll back')
      })
      .catch(() => {})
    await backend.cron.drainNet()
    expect(
      await q('select timed_out, status_code, error_msg like $2 as msg from net._http_response where id = $1', [
        slow,
        'Timeout of 200 ms reached%',
      ]),
    ).toEqual([{ timed_out: true, status_code: null, msg: true }])
    const [unreachable] = await q<{ timed_out: boolean; error_msg: string }>(
      'select timed_out, error_msg from net._http_response where id = $1',
      [refused],
    )
    expect(unreachable!.timed_out).toBe(false)
    expect(unreachable!.error_msg).toMatch(/fetch failed/)
    expect(received.some((r) => r.url.startsWith('/rolled-back'))).toBe(false)
  })

  it('keeps both APIs from the roles browsers use', async () => {
    const asRole = async (role: string, sql: string) =>
      backend.db
        .transaction(async (tx) => {
          await tx.exec(`set local role ${role}`)
          await tx.query(sql)
          return ''
        })
        .catch((error: Error) => error.message)
    for (const role of ['anon', 'authenticated']) {
      expect(await asRole(role, `select net.http_get('http://127.0.0.1:9/')`)).toMatch(/permission denied/)
      expect(await asRole(role, `select cron.schedule('x', '* * * * *', 'select 1')`)).toMatch(/permission denied/)
      expect(await asRole(role, `select * from vault.decrypted_secrets`)).toMatch(/permission denied/)
    }
  })
})
