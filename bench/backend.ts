/**
 * Embedded backend budgets (ARCHITECTURE "Budgets"): REST select-by-key at concurrency 8 through the backend as a share of the same
 * transaction sent straight through the driver, on PostgreSQL (BENCH_DATABASE_URL, else a throwaway local
 * server) and on PGlite. Prints figures against budgets and returns them; never fails on timing.
 * The start-up budgets (fresh clone, existing database) are the `startup` suite's (bench/startup.ts).
 */
import path from 'node:path'
import pg from 'pg'
import { Worker } from 'node:worker_threads'
import { hasWrk, wrkRound, wrkScript } from './wrk'
import { literal, withRequestContext } from '../embedded-backend/db/database'
import { startBackend, type Backend } from '../embedded-backend/server'
import { startLocalPostgres } from '../scripts/local-postgres'

const CONCURRENCY = 8
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const ROWS = 10_000
const ROUNDS = 5
const PROXY_HEADER = 'x-real-ip'
const BUDGET_RATIO = 0.6

export type BackendFigures = {
  postgres: SelectFigures | null
  pglite: SelectFigures
}
type SelectFigures = {
  throughRestPerSec: number
  throughDriverPerSec: number
  ratio: number
  errors: number
  client: string
}

const verdict = (ok: boolean) => (ok ? 'PASS' : 'OVER')

const SETUP = `
  create table if not exists bench_kv (id int primary key, name text not null, qty int not null);
  insert into bench_kv select i, 'item ' || i, i % 100 from generate_series(1, ${ROWS}) i on conflict do nothing;
  grant select on bench_kv to anon, authenticated;
  analyze bench_kv;`

/** Runs `fire` from CONCURRENCY loops for `seconds`. */
async function rate(fire: (i: number) => Promise<void>, seconds: number): Promise<Round> {
  const end = Date.now() + seconds * 1000
  let n = 0
  let done = 0
  let errors = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end) {
        try {
          await fire(n++)
          done++
        } catch {
          errors++
        }
      }
    }),
  )
  return { done, errors, ms: performance.now() - started }
}

/**
 * The HTTP load runs outside the backend, as a browser would: wrk when it is installed (bench/wrk.ts; with Node's
 * client in a worker thread the client took about as much CPU as the backend, and the ratio read 46–56%), else the
 * worker thread below.
 */
const LOAD_WORKER = `
const http = require('node:http')
const { parentPort, workerData: w } = require('node:worker_threads')
const agent = new http.Agent({ keepAlive: true, maxSockets: w.concurrency })
const url = new URL(w.apiUrl)
const base = { apikey: w.key, authorization: 'Bearer ' + w.key, accept: 'application/json' }
// As behind a proxy (CLIENT_IP_HEADER=x-real-ip): each request carries the visitor's address the proxy saw.
const get = (id) => new Promise((resolve, reject) => {
  const headers = w.proxyHeader ? { ...base, [w.proxyHeader]: '10.0.' + ((id >> 8) & 255) + '.' + (id & 255) } : base
  const req = http.get({ host: url.hostname, port: url.port, path: '/rest/v1/bench_kv?select=id,name,qty&id=eq.' + id, agent, headers }, (res) => {
    res.resume()
    res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error('status ' + res.statusCode))))
  })
  req.on('error', reject)
})
;(async () => {
  for (let i = 0; i < 200; i++) await get(1 + i)
  parentPort.postMessage({ ready: true })
  parentPort.on('message', async ({ seconds, stop }) => {
    if (stop) return agent.destroy()
    let n = 0, done = 0, errors = 0
    const end = Date.now() + seconds * 1000
    const started = performance.now()
    await Promise.all(Array.from({ length: w.concurrency }, async () => {
      while (Date.now() < end) {
        try { await get(1 + ((n++ * 7919) % w.rows)); done++ } catch { errors++ }
      }
    }))
    parentPort.postMessage({ done, errors, ms: performance.now() - started })
  })
})()
`

type Round = { done: number; errors: number; ms: number }

/** The same rounds as the worker's, each one wrk run (one thread, CONCURRENCY connections). */
async function wrkLoad(backend: Backend, proxyHeader?: string) {
  // The worker's requests exactly: the same keys in the same order, the proxy's header, the key.
  const script = wrkScript(
    { apikey: backend.anonKey, authorization: `Bearer ${backend.anonKey}`, accept: 'application/json' },
    `local id = 1 + ((i * 7919) % ${ROWS})
  ${proxyHeader ? `headers["${proxyHeader}"] = "10.0." .. (math.floor(id / 256) % 256) .. "." .. (id % 256)` : ''}
  return wrk.format("GET", "/rest/v1/bench_kv?select=id,name,qty&id=eq." .. id, headers)`,
  )
  const round = (seconds: number) => wrkRound(backend.apiUrl, script, CONCURRENCY, seconds)
  await round(1) // warm-up, as the worker's first 200 requests
  return { round, stop: async () => undefined, client: 'wrk' }
}

/** A load worker that runs one timed round per call. */
async function restLoad(backend: Backend, proxyHeader?: string) {
  const worker = new Worker(LOAD_WORKER, {
    eval: true,
    workerData: { apiUrl: backend.apiUrl, key: backend.anonKey, concurrency: CONCURRENCY, rows: ROWS, proxyHeader },
  })
  await new Promise((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  })
  return {
    round: (seconds: number) =>
      new Promise<Round>((resolve) => {
        worker.once('message', resolve)
        worker.postMessage({ seconds })
      }),
    stop: () => worker.terminate(),
    client: "Node's http in a worker thread",
  }
}

/**
 * The same request transaction straight through the driver, in one round trip as the budget defines it:
 * the prelude withRequestContext sets, the very statement the REST API generates for
 * `?select=id,name,qty&id=eq.<id>` (max_rows applied) and `commit`, as one simple query.
 */
const restStatement = (id: number) =>
  `select null::int as total, count(*)::int as page, coalesce(json_agg(_r), '[]')::text as body from ` +
  `(select t0."id" as "id", t0."name" as "name", t0."qty" as "qty" from "public"."bench_kv" as t0 ` +
  `where t0."id" = ${literal(String(id))}::text::integer limit 1000) _r`

function driverGetter(pool: pg.Pool) {
  // The settings a REST GET's prelude makes: read-only, anon's statement_timeout (db/role-timeouts.ts).
  const prelude =
    `begin read only; select set_config('role', 'anon', true), set_config('request.jwt.claims', '{"role":"anon"}', true), ` +
    `set_config('request.headers', '{"x-forwarded-for":"10.0.1.1","x-real-ip":"10.0.1.1"}', true), set_config('request.jwt.claim.sub', '', true), ` +
    `set_config('request.jwt.claim.role', 'anon', true), set_config('statement_timeout', '3s', true);`
  return async (id: number) => {
    await pool.query(`${prelude} ${restStatement(id)}; commit`)
  }
}

/**
 * Driver and REST rounds alternate (ROUNDS of each) so that the load other processes put on this
 * shared machine falls on both sides alike.
 */
async function selectByKey(
  backend: Backend,
  driver: (id: number) => Promise<void>,
  proxyHeader?: string,
): Promise<SelectFigures> {
  const key = (i: number) => 1 + ((i * 7919) % ROWS)
  const get = driver
  for (let i = 0; i < 200; i++) await get(key(i))
  const load = hasWrk() ? await wrkLoad(backend, proxyHeader) : await restLoad(backend, proxyHeader)
  const total = { driver: { done: 0, errors: 0, ms: 0 }, rest: { done: 0, errors: 0, ms: 0 } }
  const add = (into: Round, r: Round) => {
    into.done += r.done
    into.errors += r.errors
    into.ms += r.ms
  }
  try {
    for (let r = 0; r < ROUNDS; r++) {
      add(total.driver, await rate((i) => get(key(i)), SECONDS / ROUNDS))
      add(total.rest, await load.round(SECONDS / ROUNDS))
    }
  } finally {
    await load.stop()
  }
  const perSec = (x: Round) => x.done / (x.ms / 1000)
  return {
    throughRestPerSec: perSec(total.rest),
    throughDriverPerSec: perSec(total.driver),
    ratio: perSec(total.rest) / perSec(total.driver),
    errors: total.rest.errors + total.driver.errors,
    client: load.client,
  }
}

async function onPostgres(): Promise<SelectFigures | null> {
  const local = process.env.BENCH_DATABASE_URL ? null : startLocalPostgres(55434)
  const serverUrl = process.env.BENCH_DATABASE_URL ?? local?.url
  if (!serverUrl) return null
  const name = `growletter_bench_backend_${process.pid}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  let backend: Backend | null = null
  let driverPool: pg.Pool | null = null
  try {
    // As deployed behind a proxy: the client IP comes from the header the proxy sets (ARCHITECTURE "client IP").
    backend = await startBackend({ port: 0, databaseUrl: url.toString(), seed: false, clientIpHeader: PROXY_HEADER })
    await backend.db.exec(SETUP)
    await backend.reloadSchema()
    driverPool = new pg.Pool({ connectionString: url.toString(), max: CONCURRENCY })
    driverPool.on('error', () => {})
    return await selectByKey(backend, driverGetter(driverPool), PROXY_HEADER)
  } finally {
    await backend?.close()
    await driverPool?.end()
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => {})
    await admin.end()
    local?.stop()
  }
}

async function onPglite(): Promise<SelectFigures> {
  const backend = await startBackend({ port: 0, dataDir: null, databaseUrl: '', seed: false })
  try {
    await backend.db.exec(SETUP)
    await backend.reloadSchema()
    const ctx = {
      role: 'anon' as const,
      claims: { role: 'anon' },
      headers: { 'x-forwarded-for': '127.0.0.1' },
      readOnly: true,
    }
    // In process there is no round trip: the driver side is the same transaction through the Db handle.
    return await selectByKey(backend, async (id) => {
      await withRequestContext(backend.db, ctx, (tx) => tx.query(restStatement(id)))
    })
  } finally {
    await backend.close()
  }
}

export async function run(): Promise<BackendFigures> {
  const postgres = await onPostgres()
  if (postgres) {
    console.log(
      `PostgreSQL select by key, concurrency ${CONCURRENCY}: REST ${postgres.throughRestPerSec.toFixed(0)}/s, driver ${postgres.throughDriverPerSec.toFixed(0)}/s, ` +
        `ratio ${(postgres.ratio * 100).toFixed(0)}% (budget ≥ ${BUDGET_RATIO * 100}%: ${verdict(postgres.ratio >= BUDGET_RATIO)}), ` +
        `CLIENT_IP_HEADER=${PROXY_HEADER}, errors ${postgres.errors}, HTTP load: ${postgres.client}`,
    )
  } else console.log('PostgreSQL select by key: skipped (no BENCH_DATABASE_URL and no local PostgreSQL)')
  const pglite = await onPglite()
  console.log(
    `PGlite select by key, concurrency ${CONCURRENCY}: REST ${pglite.throughRestPerSec.toFixed(0)}/s, driver ${pglite.throughDriverPerSec.toFixed(0)}/s, ` +
      `ratio ${(pglite.ratio * 100).toFixed(0)}% (reported), errors ${pglite.errors}, HTTP load: ${pglite.client}`,
  )
  return { postgres, pglite }
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)
if (isMain) run().then(() => process.exit(0))
