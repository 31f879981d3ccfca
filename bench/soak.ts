/**
 * `npm run bench -- soak` (issue 28): mixed traffic at about 30 requests a second, over loopback, against the
 * embedded backend on PostgreSQL with the seed, for BENCH_SOAK_SECONDS (default 120): directory reads, magic-link
 * clicks (each from its own address), subscribe and confirm through the dev mailbox, sign-ins and token refreshes,
 * the advertiser's dashboard figures, deposits through the local checkout (Pay, then the same event replayed and a
 * forged one), payout requests, and the scheduler settling (screening is shortened by the bench: matured rows are
 * aged every 10 s). Every 20 s it prints p50/p99 per kind, the 5xx count and the backend's memory. At the end it
 * checks the money invariants (bench/money-invariants.ts) and prints requests, rate, 5xx (must be 0), p99 per kind
 * in the first and last window, memory growth and invariants passed.
 * BENCH_SOAK_KILL=1 also kills the backend with SIGKILL twice mid-run (its functions host must die with it),
 * checks the invariants on what the kill left, and starts it again on the same ports and database.
 * The backend runs as a child process (bench/soak-backend.ts). Uses BENCH_DATABASE_URL (a server it may create
 * databases in), else a throwaway local PostgreSQL. Never fails on timing; prints what it measured.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import pg from 'pg'
import { startLocalPostgres } from '../scripts/local-postgres'
import { machineLoad } from './machine'
import { checkMoneyInvariants, INVARIANTS } from './money-invariants'

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 120)
const RATE = Number(process.env.BENCH_SOAK_RATE ?? 30)
const KILL = process.env.BENCH_SOAK_KILL === '1'
const WINDOW_S = 20
const PORTS = { api: 54391, mail: 54392, smtp: 54393, postgres: 55449 }
const PUBLISHER = '00000000-0000-4000-a000-000000000003'
const CAMPAIGN = '20000000-0000-4000-a000-000000000001' // The Frontend Brief, the demo advertiser's
const SOURCE = { id: '10000000-0000-4000-a000-000000000001', code: 'demo-approved' } // the demo publisher's

type Ready = {
  apiUrl: string
  mailboxUrl: string
  anonKey: string
  serviceRoleKey: string
  stripeWebhookSecret: string
}
/** One request: kind, HTTP status (0: no answer), milliseconds, when it ended (ms since the start), outcome. */
type Sample = [kind: string, status: number, ms: number, at: number, outcome: string]

// The load, in a worker thread so the measuring never waits on the main thread. Every request takes a slot of a
// fixed-rate schedule (RATE a second) and is reported with its kind; flows of several requests (subscribe then
// confirm, checkout then pay then webhooks) run in lanes beside each other.
const LOAD = `
const { parentPort, workerData: w } = require('node:worker_threads')
const crypto = require('node:crypto')
const started = performance.now()
let slots = 0, stopped = false, ipSeq = 0, lostEmails = 0
const samples = []
const pendingConfirmations = []
const tokens = { advertiser: null, publisher: null, refresh: [] }
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36'
const nextIp = () => { const i = ++ipSeq; return '10.' + ((i >> 16) & 255) + '.' + ((i >> 8) & 255) + '.' + (i & 255) }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
async function slot() {
  const at = started + (slots++ * 1000) / w.rate
  const wait = at - performance.now()
  if (wait > 0) await sleep(wait)
}
async function call(kind, url, init = {}, outcomeOf) {
  await slot()
  if (stopped) return { status: -1, body: null }
  const t0 = performance.now()
  let status = 0, body = null, headers = null
  try {
    const res = await fetch(url, { redirect: 'manual', ...init, signal: AbortSignal.timeout(30000) })
    status = res.status
    headers = res.headers
    const text = await res.text()
    try { body = JSON.parse(text) } catch { body = text }
  } catch { status = 0 }
  const ms = performance.now() - t0
  let outcome = status === 0 ? 'no answer' : outcomeOf ? outcomeOf(status, body) : ''
  if (outcome === 'bad' || outcome === 'refused') {
    const said = body && typeof body === 'object' ? body.message || body.error || body.msg || '' : ''
    outcome += ' (' + status + (said ? ': ' + String(said).slice(0, 70) : '') + ')'
  }
  samples.push([kind, status, ms, performance.now() - started, outcome])
  return { status, body, headers }
}
const api = (p) => w.apiUrl + p
const anonHeaders = (ip) => ({ apikey: w.anonKey, authorization: 'Bearer ' + w.anonKey, 'content-type': 'application/json',
  'x-forwarded-for': ip || nextIp(), 'user-agent': UA })
const userHeaders = (token) => ({ ...anonHeaders(), authorization: 'Bearer ' + token })

async function signIn(email) {
  const r = await call('sign-in', api('/auth/v1/token?grant_type=password'), { method: 'POST', headers: anonHeaders(),
    body: JSON.stringify({ email, password: 'growletter-demo' }) }, (s) => (s === 200 ? 'ok' : 'refused'))
  if (r.status === 200) { tokens.refresh.push(r.body.refresh_token); return r.body.access_token }
  return null
}
async function refresh() {
  const token = tokens.refresh.shift()
  if (!token) return signIn('advertiser@growletter.test')
  const r = await call('refresh', api('/auth/v1/token?grant_type=refresh_token'), { method: 'POST', headers: anonHeaders(),
    body: JSON.stringify({ refresh_token: token }) }, (s) => (s === 200 ? 'ok' : 'refused'))
  if (r.status === 200) tokens.refresh.push(r.body.refresh_token)
}
async function directory() {
  await call('directory', api('/rest/v1/audience_sources?select=id,name,platform,category,image_url&status=in.(approved,verified,live)&order=created_at.desc&limit=24'),
    { headers: anonHeaders() }, (s, b) => (s === 200 && Array.isArray(b) ? 'ok' : 'bad'))
}
async function click(ip) {
  const r = await call('click', api('/rest/v1/rpc/track_audience_source_click'), { method: 'POST', headers: anonHeaders(ip),
    body: JSON.stringify({ unified_code: w.sourceCode, device_info: { browser: 'Chrome' } }) },
    (s, b) => (s === 200 && b && b.click_id ? 'counted' : 'bad'))
  return r.status === 200 && r.body ? r.body.click_id : null
}
async function subscribe() {
  const ip = nextIp()
  const clickId = await click(ip)
  if (!clickId) return
  const email = 'soak-' + crypto.randomUUID().slice(0, 12) + '@example.com'
  const r = await call('subscribe', api('/functions/v1/subscribe'), { method: 'POST', headers: anonHeaders(ip),
    body: JSON.stringify({ email, campaignIds: [w.campaignId], audienceSourceId: w.sourceId, clickId }) },
    (s, b) => (s === 200 && b && b.success ? 'ok' : 'bad'))
  if (r.status === 200) pendingConfirmations.push({ email, ip, at: performance.now() })
}
async function confirm() {
  // Confirmed after the 2-second minimum a person takes, as the paid-subscriber rule wants.
  const i = pendingConfirmations.findIndex((p) => performance.now() - p.at > 2500)
  if (i < 0) return directory()
  const pending = pendingConfirmations.splice(i, 1)[0]
  const { email, ip } = pending
  const mail = await call('mailbox', w.mailboxUrl + '/api/messages?to=' + encodeURIComponent(email), {},
    (s, b) => (s === 200 && Array.isArray(b) && b.length ? 'ok' : 'not yet'))
  const message = Array.isArray(mail.body) ? mail.body[0] : null
  const link = message && /https?:\\/\\/\\S+\\/confirm-subscription\\?\\S+/.exec(message.text)
  // The email may still be on its way (sent after commit); the dev mailbox forgets everything when it is killed.
  if (!link) {
    if (mail.status === 200 && (pending.tries = (pending.tries || 0) + 1) < 5) pendingConfirmations.push(pending)
    else lostEmails++
    return
  }
  const url = new URL(link[0])
  await call('confirm', api('/functions/v1/verify-subscription'), { method: 'POST', headers: anonHeaders(ip),
    body: JSON.stringify({ token: url.searchParams.get('token'), email }) },
    (s, b) => (s === 200 && b && b.success ? 'confirmed' : 'bad'))
}
async function signInAndRefresh() {
  await signIn(Math.random() < 0.5 ? 'advertiser@growletter.test' : 'publisher@growletter.test')
  await refresh()
}
async function dashboard() {
  if (!tokens.advertiser) tokens.advertiser = await signIn('advertiser@growletter.test')
  if (!tokens.advertiser) return
  const h = { method: 'POST', headers: userHeaders(tokens.advertiser) }
  const ok = (s) => (s === 200 ? 'ok' : 'bad')
  await call('dashboard', api('/rest/v1/rpc/advertiser_balance'), { ...h, body: '{}' }, ok)
  await call('dashboard', api('/rest/v1/rpc/figure_totals'), { ...h, body: JSON.stringify({ p_campaign_id: w.campaignId }) }, ok)
  await call('dashboard', api('/rest/v1/rpc/daily_figures'), { ...h, body: JSON.stringify({ p_campaign_id: w.campaignId }) }, ok)
}
const sign = (payload, secret) => {
  const t = Math.floor(Date.now() / 1000)
  const v1 = crypto.createHmac('sha256', secret).update(t + '.' + payload).digest('hex')
  return 't=' + t + ',v1=' + v1
}
async function deposit() {
  if (!tokens.advertiser) tokens.advertiser = await signIn('advertiser@growletter.test')
  if (!tokens.advertiser) return
  const amount = 10 + Math.floor(Math.random() * 40)
  const opened = await call('checkout', api('/functions/v1/create-checkout-session'), { method: 'POST',
    headers: userHeaders(tokens.advertiser), body: JSON.stringify({ amount }) }, (s, b) => (s === 200 && b && b.url ? 'ok' : 'bad'))
  if (opened.status !== 200 || !opened.body || !opened.body.url) return
  const url = opened.body.url
  const sessionId = new URL(url).pathname.split('/').pop()
  const paid = await call('pay', url + '/pay', { method: 'POST' }, (s) => (s === 303 ? 'paid' : 'bad'))
  if (paid.status !== 303) return
  const session = await call('stripe-api', api('/checkout/v1/checkout/sessions/' + sessionId),
    { headers: { authorization: 'Bearer sk_test_local_checkout' } }, (s) => (s === 200 ? 'ok' : 'bad'))
  if (session.status !== 200) return
  const payload = JSON.stringify({ id: 'evt_' + crypto.randomUUID().replace(/-/g, ''), object: 'event',
    type: 'checkout.session.completed', created: Math.floor(Date.now() / 1000),
    data: { object: { ...session.body, status: 'complete', payment_status: 'paid', payment_intent: 'pi_soak' } } })
  const webhook = (payload, signature) => ({ method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload })
  // Stripe resends an event it already delivered: answered, never credited twice.
  await call('webhook-replay', api('/functions/v1/payments-webhook'), webhook(payload, sign(payload, w.webhookSecret)),
    (s, b) => (s === 200 && b && b.result === 'already_credited' ? 'already_credited' : s === 200 && b ? String(b.result) : 'bad'))
  // Someone forges one for ten times the amount: refused.
  const forged = payload.replace('"amount_total":' + amount * 100, '"amount_total":' + amount * 1000)
  await call('webhook-forged', api('/functions/v1/payments-webhook'), webhook(forged, sign(forged, 'whsec_forged_by_someone')),
    (s) => (s === 400 ? 'rejected' : 'bad'))
}
let lastPayout = 0
async function payout() {
  if (performance.now() - lastPayout < 10000) return directory()
  lastPayout = performance.now()
  if (!tokens.publisher) tokens.publisher = await signIn('publisher@growletter.test')
  if (!tokens.publisher) return
  await call('payout', api('/rest/v1/rpc/request_payout'), { method: 'POST', headers: userHeaders(tokens.publisher),
    body: JSON.stringify({ p_amount: 50 }) }, (s) => (s === 200 ? 'requested' : 'refused'))
}
const FLOWS = [[directory, 26], [click, 22], [subscribe, 14], [confirm, 14], [signInAndRefresh, 6], [dashboard, 8],
  [deposit, 4], [payout, 6]]
const total = FLOWS.reduce((n, [, weight]) => n + weight, 0)
function pick() {
  let r = Math.random() * total
  for (const [flow, weight] of FLOWS) { if ((r -= weight) < 0) return flow }
  return directory
}
const flush = () => { if (samples.length) parentPort.postMessage({ samples: samples.splice(0) }) }
const flusher = setInterval(flush, 1000)
parentPort.on('message', (m) => { if (m.stop) stopped = true })
;(async () => {
  const end = started + w.seconds * 1000
  await Promise.all(Array.from({ length: w.lanes }, async () => {
    while (!stopped && performance.now() < end) {
      try { await pick()() } catch (e) { samples.push(['worker', 0, 0, performance.now() - started, String(e)]) }
    }
  }))
  clearInterval(flusher)
  flush()
  parentPort.postMessage({ done: true, seconds: (performance.now() - started) / 1000, unconfirmed: pendingConfirmations.length, lostEmails })
})()
`

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN
}

/** Resident memory of a process, in MB (Linux), or null once it is gone. */
function rssMb(pid: number): number | null {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb ? Number(kb) / 1024 : null
  } catch {
    return null
  }
}

/** Every process under `pid` (the functions host and its Deno), from /proc. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)])
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = []
  const walk = (p: number) => {
    for (const child of parents.get(p) ?? []) {
      out.push(child)
      walk(child)
    }
  }
  walk(pid)
  return out
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Starts bench/soak-backend.ts as a child and waits for its ready line. */
async function startChild(databaseUrl: string): Promise<{ child: ChildProcess; ready: Ready; ms: number }> {
  const started = performance.now()
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(path.dirname(new URL(import.meta.url).pathname), 'soak-backend.ts')],
    {
      env: {
        ...process.env,
        SOAK_DATABASE_URL: databaseUrl,
        SOAK_PORT: String(PORTS.api),
        SOAK_MAIL_PORT: String(PORTS.mail),
        SOAK_SMTP_PORT: String(PORTS.smtp),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let stderr = ''
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000)
  })
  const ready = await new Promise<Ready>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const line = /soak-backend-ready (\{.*\})/.exec(out)
      if (line) resolve(JSON.parse(line[1]!) as Ready)
    })
    child.once('exit', (code) => reject(new Error(`the backend exited (${code}) before it was ready: ${stderr}`)))
  })
  child.stdout!.resume()
  return { child, ready, ms: performance.now() - started }
}

type Window = { from: number; samples: Sample[]; rss: number | null; hostRss: number; pid: number }

function printWindow(w: Window) {
  const byKind = new Map<string, number[]>()
  for (const [kind, status, ms] of w.samples) {
    if (status > 0) byKind.set(kind, [...(byKind.get(kind) ?? []), ms])
  }
  const fives = w.samples.filter(([, s]) => s >= 500).length
  const refused = w.samples.filter(([, s]) => s === 0).length
  const kinds = [...byKind.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, ms]) => `${k} ${percentile(ms, 50).toFixed(0)}/${percentile(ms, 99).toFixed(0)}`)
    .join(', ')
  console.log(
    `  ${String(w.from).padStart(4)}–${w.from + WINDOW_S} s: ${w.samples.length} requests, 5xx ${fives}` +
      `${refused ? `, no answer ${refused}` : ''}; backend RSS ${w.rss?.toFixed(0) ?? '—'} MB (+ functions host ` +
      `${w.hostRss.toFixed(0)} MB); p50/p99 ms: ${kinds}`,
  )
}

/** The invariants, printed; returns how many held. */
async function invariants(db: pg.Client, when: string): Promise<{ passed: number; total: number }> {
  const results = await checkMoneyInvariants(db)
  const failed = results.filter((r) => !r.ok)
  console.log(`  money invariants ${when}: ${results.length - failed.length}/${results.length} hold`)
  for (const f of failed) console.log(`    BROKEN: ${f.name}: ${JSON.stringify(f.violations)}`)
  return { passed: results.length - failed.length, total: results.length }
}

export async function run() {
  const local = process.env.BENCH_DATABASE_URL ? null : startLocalPostgres(PORTS.postgres)
  const serverUrl = process.env.BENCH_DATABASE_URL ?? local?.url
  if (!serverUrl) return console.log('  PostgreSQL is not installed: soak skipped')
  const name = `growletter_soak_${process.pid}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  const url = Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString()
  const db = new pg.Client({ connectionString: url })
  let backend: Awaited<ReturnType<typeof startChild>> | null = null
  try {
    backend = await startChild(url)
    console.log(
      `  ${SECONDS} s of mixed traffic at ${RATE}/s on PostgreSQL, backend ready in ${(backend.ms / 1000).toFixed(1)} s` +
        `${KILL ? '; kill -9 of the backend at 35% and 70% of the run' : ''}`,
    )
    console.log(`  at start: ${machineLoad()}`)
    await db.connect()
    // Room for the run: a budget that does not run out, and earnings the publisher can ask to be paid.
    await db.query(`update public.campaigns set budget_total = budget_total + 100000 where id = $1`, [CAMPAIGN])
    await db.query(`select private.post_ledger($1, 2000, 'credit', 'completed', 'Soak bench credit', 'soak-credit')`, [
      PUBLISHER,
    ])
    const before = (
      await db.query<{ debits: number; deposits: number; payouts: number }>(
        `select count(*) filter (where type = 'debit')::int as debits, count(*) filter (where type = 'deposit')::int as deposits,
                count(*) filter (where type = 'payout')::int as payouts from public.wallet_transactions`,
      )
    ).rows[0]!

    const worker = new Worker(LOAD, {
      eval: true,
      workerData: {
        ...backend.ready,
        webhookSecret: backend.ready.stripeWebhookSecret,
        seconds: SECONDS,
        rate: RATE,
        lanes: 16,
        campaignId: CAMPAIGN,
        sourceId: SOURCE.id,
        sourceCode: SOURCE.code,
      },
    })
    const all: Sample[] = []
    const windows: Window[] = []
    let current: Sample[] = []
    const started = performance.now()
    const done = new Promise<{ seconds: number; unconfirmed: number; lostEmails: number }>((resolve, reject) => {
      worker.on(
        'message',
        (m: { samples?: Sample[]; done?: boolean; seconds: number; unconfirmed: number; lostEmails: number }) => {
          if (m.samples) {
            all.push(...m.samples)
            current.push(...m.samples)
          }
          if (m.done) resolve(m)
        },
      )
      worker.once('error', reject)
    })
    const sample = () => {
      const pid = backend!.child.pid!
      const hostRss = descendants(pid).reduce((n, p) => n + (rssMb(p) ?? 0), 0)
      const w: Window = { from: windows.length * WINDOW_S, samples: current, rss: rssMb(pid), hostRss, pid }
      current = []
      windows.push(w)
      printWindow(w)
    }
    const sampler = setInterval(sample, WINDOW_S * 1000)
    // Screening takes days; here every 10 s whatever was placed is made due, and the scheduler settles it.
    const ager = setInterval(() => {
      db.query(
        `update public.wallet_transactions set available_at = now() - interval '1 second'
         where status = 'pending' and type in ('hold', 'earning') and available_at > now()`,
      ).catch(() => {})
    }, 10_000)

    const kills: string[] = []
    const killAt = async (fraction: number) => {
      await new Promise((r) => setTimeout(r, Math.max(0, started + fraction * SECONDS * 1000 - performance.now())))
      const pid = backend!.child.pid!
      const host = descendants(pid)
      const at = ((performance.now() - started) / 1000).toFixed(0)
      process.kill(pid, 'SIGKILL')
      await new Promise((r) => backend!.child.once('exit', r))
      const t0 = performance.now()
      while (host.some(alive) && performance.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 50))
      const goneMs = performance.now() - t0
      const orphans = host.filter(alive)
      const left = await invariants(db, `right after kill -9 at ${at} s`)
      backend = await startChild(url)
      kills.push(
        `kill -9 at ${at} s: ${host.length} child processes, ${orphans.length ? `${orphans.length} LEFT RUNNING (${orphans.join(', ')})` : `all gone ${goneMs.toFixed(0)} ms after it`}; ` +
          `invariants ${left.passed}/${left.total}; restarted in ${(backend.ms / 1000).toFixed(1)} s`,
      )
      for (const p of orphans) process.kill(p, 'SIGKILL')
    }
    const killing = KILL ? (async () => (await killAt(0.35), await killAt(0.7)))() : Promise.resolve()

    const finished = await done
    await killing
    clearInterval(sampler)
    clearInterval(ager)
    if (current.length) sample()
    await worker.terminate()

    // Let the scheduler settle what is due before the invariants and the figures.
    await db.query(
      `update public.wallet_transactions set available_at = now() - interval '1 second'
       where status = 'pending' and type in ('hold', 'earning') and available_at > now()`,
    )
    const t0 = performance.now()
    while (performance.now() - t0 < 30_000) {
      const due = await db.query<{ n: number }>(
        `select count(*)::int as n from public.wallet_transactions where status = 'pending' and type in ('hold', 'earning')
         and available_at <= now() and id not in (select transaction_id from public.settlement_failures where resolved_at is null)`,
      )
      if (due.rows[0]!.n === 0) break
      await new Promise((r) => setTimeout(r, 1000))
    }
    const after = (
      await db.query<Record<string, number>>(
        `select count(*) filter (where type = 'debit')::int as debits, count(*) filter (where type = 'deposit')::int as deposits,
                count(*) filter (where type = 'payout')::int as payouts,
                (select count(*)::int from public.newsletter_subscriptions where email like 'soak-%' and counted) as counted,
                (select count(*)::int from public.newsletter_subscriptions where email like 'soak-%' and status = 'confirmed') as confirmed,
                (select count(*)::int from public.settlement_failures where resolved_at is null) as failures
         from public.wallet_transactions`,
      )
    ).rows[0]!
    const result = await invariants(db, 'at the end')

    // The figures.
    const answered = all.filter(([, s]) => s > 0)
    const fives = all.filter(([, s]) => s >= 500)
    const outcomes = new Map<string, number>()
    for (const [kind, , , , outcome] of all)
      outcomes.set(`${kind} ${outcome}`, (outcomes.get(`${kind} ${outcome}`) ?? 0) + 1)
    const count = (key: string) => outcomes.get(key) ?? 0
    console.log(
      `  ${all.length} requests in ${finished.seconds.toFixed(0)} s (${(all.length / finished.seconds).toFixed(1)}/s); ` +
        `5xx: ${fives.length}${fives.length ? ` (${[...new Set(fives.map(([k, s]) => `${k} ${s}`))].join(', ')})` : ''} (must be 0)` +
        `; no answer (backend down): ${all.length - answered.length}`,
    )
    console.log(
      `  outcomes: ${count('click counted')} clicks, ${after.confirmed} confirmed subscribers (${after.counted} paid), ` +
        `${after.debits! - before.debits} holds settled into debits, ${after.deposits! - before.deposits} deposits credited ` +
        `(${count('pay paid')} paid at the checkout), ${count('webhook-replay already_credited')} replays answered "already credited", ` +
        `${count('webhook-forged rejected')} forged events refused, ${count('payout requested')} payout requests, ` +
        `${after.payouts! - before.payouts} payouts transferred; ${after.failures} rows failing to settle; ` +
        `${finished.lostEmails} confirmation emails never found (the dev mailbox keeps them in memory: a kill loses them), ` +
        `${finished.unconfirmed} subscribers still waiting to confirm at the end`,
    )
    const unexpected = [...outcomes.entries()].filter(([k]) => /(bad|refused)\b/.test(k))
    if (unexpected.length)
      console.log(`  answers other than the usual: ${unexpected.map(([k, n]) => `${k} ×${n}`).join('; ')}`)
    const noAnswer = [...outcomes.entries()].filter(([k]) => k.endsWith('no answer'))
    if (noAnswer.length)
      console.log(
        `  no answer while the backend was down: ${noAnswer.map(([k, n]) => `${k.split(' ')[0]} ×${n}`).join(', ')}`,
      )
    // The last full window (the worker's tail after the last sample is a few requests).
    const full = windows.filter((w) => w.samples.length >= (RATE * WINDOW_S) / 2)
    if (full.length >= 2) {
      const [first, last] = [full[0]!, full[full.length - 1]!]
      const p99 = (w: Window, kind: string) =>
        percentile(
          w.samples.filter(([k, s]) => k === kind && s > 0).map(([, , ms]) => ms),
          99,
        )
      const kinds = [...new Set(answered.map(([k]) => k))].sort()
      const fmt = (v: number) => (Number.isNaN(v) ? '—' : v.toFixed(0))
      console.log(
        `  p99 ms, first (${first.from}–${first.from + WINDOW_S} s) → last (${last.from}–${last.from + WINDOW_S} s) window: ` +
          kinds.map((k) => `${k} ${fmt(p99(first, k))} → ${fmt(p99(last, k))}`).join(', '),
      )
      // Memory over the last stretch one backend process ran (a kill starts a new one), from its second full window
      // (the first holds the start-up's garbage) to its last full one.
      const same = full.filter((w) => w.pid === last.pid && w.rss !== null)
      const from = same.length >= 3 ? same[1]! : same[0]
      if (from && from !== last) {
        console.log(
          `  backend memory ${from.rss!.toFixed(0)} → ${last.rss!.toFixed(0)} MB (${(((last.rss! - from.rss!) / from.rss!) * 100).toFixed(1)}%) ` +
            `from the ${from.from}–${from.from + WINDOW_S} s window to the ${last.from}–${last.from + WINDOW_S} s one; ` +
            `functions host ${from.hostRss.toFixed(0)} → ${last.hostRss.toFixed(0)} MB`,
        )
      } else {
        console.log('  backend memory: not compared (the backend was restarted within the last full windows)')
      }
    }
    for (const k of kills) console.log(`  ${k}`)
    console.log(`  money invariants: ${result.passed}/${result.total} (${INVARIANTS.length} checked)`)
    console.log(`  at end: ${machineLoad()}`)
  } finally {
    if (backend && backend.child.exitCode === null) {
      backend.child.kill('SIGTERM')
      await new Promise((r) => setTimeout(r, 100))
      await new Promise((r) => (backend!.child.exitCode === null ? backend!.child.once('exit', r) : r(null)))
    }
    await db.end().catch(() => {})
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => {})
    await admin.end()
    local?.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run()
  process.exit(0)
}
