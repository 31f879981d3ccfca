/**
 * `npm run bench -- scale` (issue 27, ARCHITECTURE "Budgets"): clicks on one hot source against the same load
 * spread over 200 sources, concurrency 64, every click from its own visitor (none refused), through the backend
 * over HTTP on PostgreSQL, rounds alternated so the machine's other load falls on both alike; and the driver in one
 * round trip on the hot source, for scale. Budget: hot ≥ 90% of spread, hot p99 ≤ 1.2 × spread p99, same run.
 * Uses BENCH_DATABASE_URL (a server it may create databases in), else a throwaway local PostgreSQL.
 * Prints figures against budgets; never fails on timing.
 */
import { Worker } from 'node:worker_threads'
import pg from 'pg'
import { literal, openDatabase } from '../embedded-backend/db/database'
import { migrate } from '../embedded-backend/db/migrate'
import { ensureAuthSchema } from '../embedded-backend/auth/schema'
import { startBackend } from '../embedded-backend/server'
import { startLocalPostgres } from '../scripts/local-postgres'
import { machineLoad } from './machine'

const SOURCES = 200
const CONCURRENCY = 64
const SECONDS = Number(process.env.BENCH_SECONDS ?? 24)
const ROUNDS = 3
const HOT_RATIO_BUDGET = 0.9
const P99_RATIO_BUDGET = 1.2
const browserUa = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36'

type Round = { done: number; errors: number; seconds: number; latencies: number[] }

// One worker sends every round: node:http with a keep-alive agent, each click from its own address, so no click
// is refused as a duplicate visitor or rate-limited (the budget compares counted clicks).
const LOAD = `
const http = require('node:http')
const { parentPort, workerData: w } = require('node:worker_threads')
const agent = new http.Agent({ keepAlive: true, maxSockets: w.concurrency })
const target = new URL(w.url)
let visitor = 0
const post = (code) => new Promise((resolve) => {
  const i = visitor++
  const body = JSON.stringify({ unified_code: code, device_info: { browser: 'Chrome' } })
  const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent,
    headers: { ...w.headers, 'content-length': Buffer.byteLength(body),
      'x-forwarded-for': '10.' + ((i >> 16) & 255) + '.' + ((i >> 8) & 255) + '.' + (i & 255) } },
    (res) => { res.resume(); res.on('end', () => resolve(res.statusCode)) })
  req.on('error', () => resolve(0))
  req.end(body)
})
parentPort.on('message', async ({ seconds, hot, stop }) => {
  if (stop) { agent.destroy(); return parentPort.postMessage({ stopped: true }) }
  const latencies = []
  let n = 0, done = 0, errors = 0
  const end = Date.now() + seconds * 1000
  const started = performance.now()
  await Promise.all(Array.from({ length: w.concurrency }, async () => {
    while (Date.now() < end) {
      const code = hot ? 'scale-1' : 'scale-' + (1 + (n++ % w.sources))
      const t0 = performance.now()
      if ((await post(code)) === 200) done++; else errors++
      latencies.push(performance.now() - t0)
    }
  }))
  parentPort.postMessage({ done, errors, seconds: (performance.now() - started) / 1000, latencies })
})
parentPort.postMessage({ ready: true })
`

const p99 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? NaN
}
const add = (into: Round, r: Round) => {
  into.done += r.done
  into.errors += r.errors
  into.seconds += r.seconds
  into.latencies.push(...r.latencies)
}
const empty = (): Round => ({ done: 0, errors: 0, seconds: 0, latencies: [] })

async function seed(url: string) {
  const db = await openDatabase({ databaseUrl: url })
  try {
    await migrate(db, { seed: false, afterBootstrap: ensureAuthSchema })
    await db.exec(`
      insert into auth.users (id, email, raw_user_meta_data)
        values ('00000000-0000-4000-b000-00000000a001', 'scale-publisher@bench.test', '{"user_type":"publisher"}');
      insert into public.audience_sources (publisher_id, name, platform, category, status, unified_code)
        select '00000000-0000-4000-b000-00000000a001', 'Scale source ' || i, 'newsletter', 'technology', 'approved', 'scale-' || i
        from generate_series(1, ${SOURCES}) i;
      analyze;`)
  } finally {
    await db.close()
  }
}

/** The hot source through the driver, in one round trip per click, as the gateway would send it. */
async function driverHot(url: string): Promise<Round> {
  const pool = new pg.Pool({ connectionString: url, max: CONCURRENCY })
  pool.on('error', () => {})
  const round = empty()
  let visitor = 1_000_000
  const end = Date.now() + (SECONDS / ROUNDS) * 1000
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end) {
        const i = visitor++
        // As the gateway hands them to SQL: the address in x-real-ip too (the header the click reads).
        const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
        const headers = JSON.stringify({ 'x-forwarded-for': address, 'x-real-ip': address, 'user-agent': browserUa })
        const t0 = performance.now()
        try {
          await pool.query(
            `begin; set local role anon; select set_config('request.headers', ${literal(headers)}, true), ` +
              `set_config('request.jwt.claims', '{"role":"anon"}', true); ` +
              `select public.track_audience_source_click('scale-1', '{"browser":"Chrome"}'); commit;`,
          )
          round.done++
        } catch {
          round.errors++
        }
        round.latencies.push(performance.now() - t0)
      }
    }),
  )
  round.seconds = (performance.now() - started) / 1000
  await pool.end()
  return round
}

export async function run() {
  const local = process.env.BENCH_DATABASE_URL ? null : startLocalPostgres(55443)
  const serverUrl = process.env.BENCH_DATABASE_URL ?? local?.url
  if (!serverUrl) return console.log('PostgreSQL is not installed: scale figures skipped')
  const name = `growletter_scale_${Date.now()}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  const url = Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString()
  try {
    await seed(url)
    console.log(
      `Clicks at concurrency ${CONCURRENCY}, one hot source vs ${SOURCES} sources, PostgreSQL, ${ROUNDS} alternated rounds of ${SECONDS / ROUNDS} s`,
    )
    console.log(`  at start: ${machineLoad()}`)
    const backend = await startBackend({
      port: 0,
      dataDir: null,
      databaseUrl: url,
      seed: false,
      clientIpHeader: 'x-forwarded-for',
      cron: false,
    })
    const worker = new Worker(LOAD, {
      eval: true,
      workerData: {
        url: `${backend.apiUrl}/rest/v1/rpc/track_audience_source_click`,
        headers: {
          apikey: backend.anonKey,
          authorization: `Bearer ${backend.anonKey}`,
          'content-type': 'application/json',
          'user-agent': browserUa,
        },
        concurrency: CONCURRENCY,
        sources: SOURCES,
      },
    })
    const next = () => new Promise<Round & { ready?: boolean }>((resolve) => worker.once('message', resolve))
    await next()
    const spread = empty()
    const hot = empty()
    try {
      for (let r = 0; r < ROUNDS; r++) {
        worker.postMessage({ seconds: SECONDS / ROUNDS, hot: false })
        add(spread, await next())
        worker.postMessage({ seconds: SECONDS / ROUNDS, hot: true })
        add(hot, await next())
      }
      worker.postMessage({ stop: true })
      await next()
    } finally {
      await worker.terminate()
      await backend.close()
    }
    const driver = await driverHot(url)
    const rate = (x: Round) => x.done / x.seconds
    const ratio = rate(hot) / rate(spread)
    const p99Ratio = p99(hot.latencies) / p99(spread.latencies)
    const verdict = (ok: boolean) => (ok ? 'within budget' : 'OVER BUDGET')
    console.log(
      `  spread over ${SOURCES} sources: ${rate(spread).toFixed(0)} clicks/s, p99 ${p99(spread.latencies).toFixed(1)} ms, errors ${spread.errors}`,
    )
    console.log(
      `  one hot source:              ${rate(hot).toFixed(0)} clicks/s, p99 ${p99(hot.latencies).toFixed(1)} ms, errors ${hot.errors}`,
    )
    console.log(
      `  driver, one round trip, hot: ${rate(driver).toFixed(0)} clicks/s, p99 ${p99(driver.latencies).toFixed(1)} ms, errors ${driver.errors}`,
    )
    console.log(
      `  hot vs spread: ${(ratio * 100).toFixed(0)}% (budget ≥ ${HOT_RATIO_BUDGET * 100}%: ${verdict(ratio >= HOT_RATIO_BUDGET)}); ` +
        `p99 ratio ${p99Ratio.toFixed(2)} (budget ≤ ${P99_RATIO_BUDGET}: ${verdict(p99Ratio <= P99_RATIO_BUDGET)})`,
    )
    console.log(`  at end: ${machineLoad()}`)
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => {})
    await admin.end()
    local?.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run()
  process.exit(0)
}
