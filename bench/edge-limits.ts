/**
 * `npm run bench -- edge` (issue 36): each scheduled edge function's worst case at its batch bound, and the subscriber
 * export at a large size, against hosted Supabase's Edge Functions limits (supabase/functions/_shared/run-budget.ts:
 * CPU 2 s per request, memory 256 MB, an answer within the 150 s idle timeout).
 *
 * One backend on a fresh seeded in-memory database, its scheduler off (the bench calls the functions itself, with the
 * functions secret, as pg_net does). The providers are stubs on this machine that answer at once, so a run does the
 * most work its bounds allow: that is its CPU worst case. Figures per run: rows handled (and left for the next run),
 * wall time, CPU time of the functions' Deno process (all functions run in it; nothing else is called meanwhile) and
 * its peak resident memory above the level before the run. The local runner holds a response body whole before
 * passing it on (hosted streams it), so the export's memory figure includes the CSV itself.
 * Then the wall-clock worst case: deliver-esp while every provider request hangs (EDGE_BENCH_HANG=0 skips it, ~1 min).
 * Linux only (reads /proc). Prints figures; never fails on timing.
 *
 * Measured 2026-11-28, 2 × AMD EPYC, load average 9–13 (other sessions' suites on the same 2 cores), PGlite, two runs:
 *   deliver-esp, 12 × 20 deliveries (360 of 600 left queued): 4.5–10.8 s, CPU 300–390 ms (15–20% of 2 s), +12 MB;
 *   deliver-esp, 12 × 20 deliveries and 201 read-backs in one run: 9.4–11.3 s, CPU 460–490 ms (23–25%), +20 MB;
 *   (before: 25 × 20 deliveries alone 480–740 ms at load 5–9, read-backs doubling it);
 *   send-notifications, 10 × 20 through the email API: 0.7–6.9 s, CPU 160–310 ms (8–16%), +10–12 MB;
 *   deliver-webhooks, 10 × 20: 1.0–4.9 s, CPU 170–340 ms (9–17%), +3–6 MB;
 *   export-subscribers, 100,201 rows in 3 parts (8.1 MB of CSV, 3.8–4.0 µs of CPU a row): costliest part 8.6–13.9 s,
 *   CPU 220 ms (11%), +32 MB including the runner's copy of the body;
 *   deliver-esp with every provider request hanging: answered after 60.7–62.3 s (of the 150 s idle timeout), 80 retrying.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { ABORT_MS, CLAIM_MS, HOSTED_EDGE_LIMITS } from '../supabase/functions/_shared/run-budget'
import { startBackend, type Backend } from '../embedded-backend/server'
import { machineLoad } from './machine'

const EXPORT_ROWS = Number(process.env.EDGE_BENCH_EXPORT_ROWS ?? 100_000)
const HANG = process.env.EDGE_BENCH_HANG !== '0'
/** deliver-esp's MAX_BATCHES (supabase/functions/deliver-esp/index.ts), for the titles. */
const ESP_BATCHES = 12
const CAMPAIGNS = [
  '20000000-0000-4000-a000-000000000001',
  '20000000-0000-4000-a000-000000000002',
  '20000000-0000-4000-a000-000000000007',
]
const ADVERTISER = 'advertiser@growletter.test'
const DEMO_PASSWORD = 'growletter-demo'
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim())

/** A stand-in for every outside service the functions call: answers at once, or never while `hang` is on. */
async function stubServer() {
  const counts = new Map<string, number>()
  const state = { hang: false }
  const server = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      const key = `${req.method} ${req.url?.replace(/[0-9a-f-]{8,}|\d+/g, ':id')}`
      counts.set(key, (counts.get(key) ?? 0) + 1)
      if (state.hang) return // never answers: the caller's own timeout ends it
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ id: `stub-${Math.random().toString(36).slice(2)}`, data: { id: 'sub_stub' } }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, counts, state, close: () => new Promise<void>((r) => server.close(() => r())) }
}

/** The functions' Deno process: the child of this process that runs embedded-backend/functions/host.ts. */
function denoHostPid(): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid === process.pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('host.ts'))
        return Number(entry)
    } catch {
      // A process that ended meanwhile.
    }
  }
  throw new Error('the functions host is not running')
}

const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS // utime + stime
}
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

/** A fresh connection per call: a kept-alive one may have been closed by the server during a long data load. */
const call = (backend: Backend, name: string, token: string, body: unknown = {}) =>
  fetch(`${backend.apiUrl}/functions/v1/${name}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      apikey: backend.anonKey,
      // What pg_net sends the scheduled functions (supabase/functions/_shared/functions-secret.ts).
      'x-functions-secret': backend.functionsSecret,
      'content-type': 'application/json',
      connection: 'close',
    },
    body: JSON.stringify(body),
  }).catch((error: Error) => {
    throw new Error(`${name}: ${error.message} (${String((error.cause as Error | undefined)?.message ?? '')})`)
  })

type Measured = { status: number; body: string; next: string | null; wallMs: number; cpuMs: number; peakRssMb: number }

/** Calls one function and measures the Deno process around it (RSS sampled every 20 ms). */
async function measure(backend: Backend, name: string, token: string, body: unknown = {}): Promise<Measured> {
  const pid = denoHostPid()
  const cpu0 = cpuMs(pid)
  const rss0 = rssMb(pid)
  let peak = rss0
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20)
  const t0 = performance.now()
  const res = await call(backend, name, token, body)
  const text = await res.text()
  const wallMs = performance.now() - t0
  clearInterval(sampler)
  peak = Math.max(peak, rssMb(pid))
  return {
    status: res.status,
    body: text,
    next: res.headers.get('x-export-next'),
    wallMs,
    cpuMs: cpuMs(pid) - cpu0,
    peakRssMb: peak - rss0,
  }
}

function print(title: string, m: Measured, detail: string) {
  const cpuShare = (m.cpuMs / HOSTED_EDGE_LIMITS.cpuMsPerRequest) * 100
  const memShare = (m.peakRssMb / (HOSTED_EDGE_LIMITS.memoryBytes / 2 ** 20)) * 100
  const idleShare = (m.wallMs / HOSTED_EDGE_LIMITS.idleTimeoutMs) * 100
  console.log(`  ${title}: ${detail}`)
  console.log(
    `    answered ${m.status} in ${(m.wallMs / 1000).toFixed(2)} s (${idleShare.toFixed(1)}% of the 150 s idle timeout); ` +
      `CPU ${m.cpuMs.toFixed(0)} ms (${cpuShare.toFixed(0)}% of 2 s); ` +
      `peak memory +${m.peakRssMb.toFixed(1)} MB (${memShare.toFixed(1)}% of 256 MB)`,
  )
}

async function count(backend: Backend, sql: string): Promise<number> {
  return (await backend.db.query<{ n: number }>(sql)).rows[0]!.n
}

/** 3 campaigns connected to beehiiv (the stub) with keys of their own: 3 × 180 requests a minute of budget. */
async function queueEspDeliveries(backend: Backend, perCampaign: number, tag: string) {
  for (const [i, campaign] of CAMPAIGNS.entries()) {
    await backend.db.query(
      `insert into public.esp_connections (campaign_id, advertiser_id, provider, target_id, target_name, secret_id, key_fingerprint)
       select g.id, g.advertiser_id, 'beehiiv', 'pub_bench', 'Bench', vault.create_secret($2, null, 'bench ' || g.id),
         encode(sha256(convert_to($2, 'UTF8')), 'hex')
       from public.campaigns g where g.id = $1
       on conflict (campaign_id) do nothing`,
      [campaign, `bench-beehiiv-key-${i}`],
    )
  }
  // Confirmed readers and their queued deliveries written directly (triggers off): the confirmation path is not what is
  // measured, and it would spend the advertisers' wallets long before the batch bound.
  await backend.db.exec(`
    begin;
    set local session_replication_role = replica;
    insert into public.newsletter_subscriptions (campaign_id, email, status, confirmed_at, counted, confirm_ip)
    select c.id, 'esp-${tag}-' || n || '@' || left(c.id::text, 8) || '.example.com', 'confirmed', now() - interval '1 minute', true, '203.0.113.9'
    from unnest(array['${CAMPAIGNS.join("','")}']::uuid[]) c(id), generate_series(1, ${perCampaign}) n;
    insert into public.esp_deliveries (connection_id, subscription_id, campaign_id, advertiser_id)
    select e.id, s.id, s.campaign_id, e.advertiser_id
    from public.newsletter_subscriptions s join public.esp_connections e on e.campaign_id = s.campaign_id
    where s.email like 'esp-${tag}-%';
    commit;`)
}

async function queueNotifications(backend: Backend, n: number) {
  await backend.db.query(
    `select private.enqueue_notification(p.id, 'low_balance', '{"available": 1, "threshold": 5}'::jsonb, 'bench-' || g)
     from (select id from public.profiles where email is not null order by created_at limit 1) p, generate_series(1, $1) g`,
    [n],
  )
}

async function queueWebhooks(backend: Backend, stubUrl: string, n: number) {
  const secret = `whsec_${Buffer.from('bench-webhook-secret-0123456789ab').toString('base64')}`
  await backend.db.exec(`
    begin;
    set local session_replication_role = replica;
    insert into public.webhook_endpoints (id, advertiser_id, url, secret)
    select '30000000-0000-4000-a000-0000000000b1', advertiser_id, '${stubUrl}/hook', '${secret}'
    from public.campaigns where id = '${CAMPAIGNS[0]}';
    insert into public.webhook_deliveries (endpoint_id, advertiser_id, event_type, payload)
    select e.id, e.advertiser_id, 'subscriber.confirmed', jsonb_build_object('n', g)
    from public.webhook_endpoints e, generate_series(1, ${n}) g where e.id = '30000000-0000-4000-a000-0000000000b1';
    commit;`)
}

async function exportRows(backend: Backend, n: number) {
  await backend.db.exec(`
    begin;
    set local session_replication_role = replica;
    insert into public.newsletter_subscriptions (campaign_id, email, status, confirmed_at, counted)
    select '${CAMPAIGNS[0]}', 'export-' || g || '@example.com', 'confirmed', now() - make_interval(secs => g), g % 3 <> 0
    from generate_series(1, ${n}) g;
    commit;`)
}

async function signIn(backend: Backend): Promise<string> {
  const res = await fetch(`${backend.apiUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: backend.anonKey, 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify({ email: ADVERTISER, password: DEMO_PASSWORD }),
  })
  return ((await res.json()) as { access_token: string }).access_token
}

export async function run() {
  console.log(`  at start: ${machineLoad()}`)
  console.log(
    `  hosted limits (supabase.com/docs/guides/functions/limits): CPU ${HOSTED_EDGE_LIMITS.cpuMsPerRequest} ms per request, ` +
      `memory 256 MB, idle timeout 150 s, wall clock 150 s free / 400 s paid; runs claim for ${CLAIM_MS / 1000} s, abort at ${ABORT_MS / 1000} s`,
  )
  const stub = await stubServer()
  // Every provider the functions call, pointed at the stub (the backend passes these to the functions).
  Object.assign(process.env, {
    ESP_BEEHIIV_API_URL: stub.url,
    EMAIL_PROVIDER: 'resend',
    RESEND_API_URL: stub.url,
    RESEND_API_KEY: 're_bench',
    EMAIL_FROM: 'Growletter <bench@growletter.example>',
  })
  const backend = await startBackend({ port: 0, dataDir: null, seed: true, cron: false })
  const service = backend.anonKey
  try {
    // Load every measured function once (this starts the functions' Deno process), so module loading is not counted.
    for (const name of ['deliver-esp', 'deliver-webhooks', 'send-notifications'])
      await (await call(backend, name, service)).text()

    await queueEspDeliveries(backend, 200, 'bound')
    const esp = await measure(backend, 'deliver-esp', service)
    const left = await count(backend, "select count(*)::int as n from public.esp_deliveries where status = 'queued'")
    print(
      `deliver-esp at its delivery bound (${ESP_BATCHES} batches × 20)`,
      esp,
      `${esp.body}; ${left} of 600 left queued for the next run`,
    )
    // Those subscribers 6 hours later, their engagement due to be read back, while the rest still waits to be
    // delivered (a fresh minute of key budget): a run that does both at their bounds, deliver-esp's worst case.
    await backend.db.exec(`
      delete from private.esp_request_log where true;
      update public.esp_deliveries set delivered_at = now() - interval '7 hours' where status = 'delivered';`)
    const both = await measure(backend, 'deliver-esp', service)
    print(`deliver-esp delivering and reading back, ${ESP_BATCHES} batches × 20 of each`, both, both.body)

    await queueNotifications(backend, 240)
    const notes = await measure(backend, 'send-notifications', service)
    print('send-notifications at its bound (10 × 20), through the email API stub', notes, `${notes.body} of 240 queued`)

    await queueWebhooks(backend, stub.url, 240)
    const hooks = await measure(backend, 'deliver-webhooks', service)
    print('deliver-webhooks at its bound (10 × 20)', hooks, `${hooks.body} of 240 queued`)

    await exportRows(backend, EXPORT_ROWS)
    const token = await signIn(backend)
    await (await call(backend, 'export-subscribers', token, { campaignId: CAMPAIGNS[1] })).text() // load the module
    // The SPA's loop: one request per part, each naming the next.
    const parts: Measured[] = []
    let after: string | null = null
    do {
      const body: Record<string, string> = after ? { campaignId: CAMPAIGNS[0]!, after } : { campaignId: CAMPAIGNS[0]! }
      parts.push(await measure(backend, 'export-subscribers', token, body))
      after = parts.at(-1)!.next
    } while (after)
    const rows = parts.reduce((n, p) => n + p.body.split('\n').length - 1, 0) - 1
    const bytes = parts.reduce((n, p) => n + p.body.length, 0)
    const cpu = parts.reduce((n, p) => n + p.cpuMs, 0)
    const worst = parts.reduce((a, b) => (b.cpuMs > a.cpuMs ? b : a))
    print(
      `export-subscribers at ${EXPORT_ROWS.toLocaleString('en')} subscribers, the costliest of its parts`,
      {
        ...worst,
        wallMs: Math.max(...parts.map((p) => p.wallMs)),
        peakRssMb: Math.max(...parts.map((p) => p.peakRssMb)),
      },
      `${rows.toLocaleString('en')} rows in ${parts.length} parts, ${(bytes / 2 ** 20).toFixed(1)} MB of CSV, ` +
        `${(cpu / 1000).toFixed(2)} s of CPU in all (${((cpu / Math.max(rows, 1)) * 1000).toFixed(1)} µs a row)`,
    )

    if (HANG) {
      await queueEspDeliveries(backend, 40, 'hang')
      stub.state.hang = true
      const hung = await measure(backend, 'deliver-esp', service)
      stub.state.hang = false
      print('deliver-esp while every provider request hangs', hung, hung.body)
    }
    console.log(`  at end: ${machineLoad()}`)
  } finally {
    await backend.close()
    await stub.close()
  }
}
