/**
 * `npm run bench -- settlement` (issue 28): one advertiser with N matured holds, settled by the scheduled job's own
 * command run after run (each run its own transaction, as pg_cron runs it), while that advertiser's wallet is locked
 * every 50 ms as a confirmation or a deposit would lock it. Budget: no wait behind a settlement run longer than a
 * second, on PostgreSQL and on PGlite, and time linear in the rows (N = 2,000 and 8,000 are both measured).
 * Uses BENCH_DATABASE_URL (a server it may create databases in), else a throwaway local PostgreSQL.
 * Prints figures against the budget; never fails on timing.
 */
import pg from 'pg'
import type { Db } from '../embedded-backend/db/database'
import { startBackend } from '../embedded-backend/server'
import { startLocalPostgres } from '../scripts/local-postgres'
import { machineLoad } from './machine'
import { settleUntilDone } from './settle-until-done'

const SIZES = (process.env.BENCH_SETTLE_ROWS ?? '2000,8000').split(',').map(Number)
const WAIT_BUDGET_MS = 1000

type Figures = { rows: number; runs: number; longestRunMs: number; totalMs: number; probes: number[] }

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0
}

async function settleOnce(db: Db, rows: number): Promise<Figures> {
  const advertiser = (
    await db.query<{ id: string }>(
      "select id from public.profiles where user_type = 'advertiser' order by created_at limit 1",
    )
  ).rows[0]!.id
  // Enough balance for every hold, then the holds themselves, matured a minute ago, through the ledger's own function.
  const tag = `bench-${rows}-${Date.now()}`
  await db.query(`select private.post_ledger($1, $2, 'credit', 'completed', 'Bench credit', $3)`, [
    advertiser,
    rows,
    `${tag}-credit`,
  ])
  await db.query(
    `select private.post_ledger($1, -1, 'hold', 'pending', 'Bench (on hold during screening)', $2 || '-' || g,
       null, null, now() - interval '1 minute')
     from generate_series(1, $3::int) g`,
    [advertiser, tag, rows],
  )
  const { runs, longestRunMs, totalMs, probes } = await settleUntilDone(db, advertiser)
  const left = await db.query<{ n: number }>(
    "select count(*)::int as n from public.wallet_transactions where reference like $1 and status = 'pending'",
    [`${tag}-%`],
  )
  if (left.rows[0]!.n !== 0) throw new Error(`${left.rows[0]!.n} holds were left pending`)
  return { rows, runs, longestRunMs, totalMs, probes }
}

function report(engine: string, figures: Figures[]) {
  for (const f of figures) {
    const worst = Math.max(...f.probes)
    console.log(
      `  ${engine}, ${f.rows.toLocaleString('en-US')} matured rows of one advertiser: ${f.runs} runs back to back in ` +
        `${(f.totalMs / 1000).toFixed(1)} s (${((f.totalMs / f.rows) * 1000).toFixed(0)} µs a row; on the 5-second ` +
        `schedule about ${Math.ceil((f.runs * 5) / 60)} min), longest run ${f.longestRunMs.toFixed(0)} ms; the advertiser's ` +
        `wallet lock waited p50 ${percentile(f.probes, 50).toFixed(1)} ms, p99 ${percentile(f.probes, 99).toFixed(1)} ms, ` +
        `max ${worst.toFixed(0)} ms over ${f.probes.length} requests (budget ≤ ${WAIT_BUDGET_MS} ms: ${worst <= WAIT_BUDGET_MS ? 'PASS' : 'OVER'})`,
    )
  }
  if (figures.length >= 2) {
    const [a, b] = [figures[0]!, figures[figures.length - 1]!]
    const perRow = (f: Figures) => f.totalMs / f.rows
    console.log(
      `  ${engine}: time per row at ${b.rows.toLocaleString('en-US')} rows is ${(perRow(b) / perRow(a)).toFixed(2)}× that at ` +
        `${a.rows.toLocaleString('en-US')} (linear: about 1×)`,
    )
  }
}

export async function run() {
  console.log(`  at start: ${machineLoad()}`)
  const pglite = await startBackend({ port: 0, dataDir: null, seed: true, cron: false })
  try {
    const figures: Figures[] = []
    for (const rows of SIZES) figures.push(await settleOnce(pglite.db, rows))
    report('PGlite', figures)
  } finally {
    await pglite.close()
  }

  const local = process.env.BENCH_DATABASE_URL ? null : startLocalPostgres(55447)
  const serverUrl = process.env.BENCH_DATABASE_URL ?? local?.url
  if (!serverUrl) {
    console.log('  PostgreSQL: skipped (no BENCH_DATABASE_URL and no local PostgreSQL)')
    return
  }
  const name = `growletter_bench_settle_${process.pid}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  try {
    const backend = await startBackend({ port: 0, databaseUrl: url.toString(), seed: true, cron: false })
    try {
      const figures: Figures[] = []
      for (const rows of SIZES) figures.push(await settleOnce(backend.db, rows))
      report('PostgreSQL', figures)
    } finally {
      await backend.close()
    }
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => {})
    await admin.end()
    local?.stop()
  }
  console.log(`  at end: ${machineLoad()}`)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run()
  process.exit(0)
}
