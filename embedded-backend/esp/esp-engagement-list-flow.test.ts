// Engagement read back by list pages end to end in the embedded backend (issue 39), on this run's engine (PGlite, or
// a fresh database on TEST_DATABASE_URL's server): six readers of the demo MailerLite newsletter paid per engaged
// reader reach their window's close together; the read-esp-engagement job runs deliver-esp, which reads MailerLite's
// group page by page (pages of 3 here, so the group spans pages) instead of one request per reader. A 429 on the
// second page pauses the key and leaves the readers waiting; once the pause is over the next run reads them all, a
// reader deleted in the tool stays waiting; settlement charges the reader who clicked and releases the rest
// not_engaged, as the per-reader read would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBackend, type Backend } from '../server'
import { confirmedReader } from '../testing/confirmed-reader'
import { postgresDatabase } from '../testing/rest-fixture'

const SOURCE = '10000000-0000-4000-a000-000000000001'
const ENGAGED = '20000000-0000-4000-a000-000000000003' // connected to MailerLite by the seed
const GROUP = '100000000000000001'

let backend: Backend
let database: Awaited<ReturnType<typeof postgresDatabase>> | null = null
const readers: string[] = []

/** A reader of the demo MailerLite newsletter through the demo source, confirmed and counted. */
const reader = (name: string) => confirmedReader(backend.db, { campaignId: ENGAGED, sourceId: SOURCE, name })

const sandbox = (path: string, body: unknown) =>
  fetch(`${backend.apiUrl}/esp${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

let seen = 0
/** MailerLite's reads since the last call: the group's pages and any one-by-one reads, oldest first. */
async function newReads() {
  const all = (await (await fetch(`${backend.apiUrl}/esp/_api/requests?provider=mailerlite`)).json()) as {
    id: number
    method: string
    path: string
    status: number
  }[]
  const fresh = all.filter((r) => r.id > seen)
  seen = Math.max(seen, ...all.map((r) => r.id))
  return fresh
    .filter((r) => r.method === 'GET' && (r.path.startsWith('/api/groups/') || r.path.startsWith('/api/subscribers/')))
    .reverse()
    .map((r) => `${r.status} ${decodeURIComponent(r.path).replace(/cursor=[^&]+/, 'cursor=…')}`)
}

const stateOf = async (email: string) =>
  (
    await backend.db.query<{
      checked: boolean
      waits: boolean
      counted: boolean
      reason: string | null
      decision: string | null
    }>(
      `select d.engagement_checked_at is not null as checked, coalesce(d.engagement_retry_at > now(), false) as waits,
         s.counted, s.not_counted_reason as reason, s.engagement_decision as decision
       from public.esp_deliveries d join public.newsletter_subscriptions s on s.id = d.subscription_id where s.email = $1`,
      [email],
    )
  ).rows[0]!

async function runJob() {
  const due = await backend.db.query<{ n: number }>('select private.dispatch_esp_engagement() as n')
  await backend.cron.drainNet()
  return due.rows[0]!.n
}

beforeAll(async () => {
  database = process.env.TEST_DATABASE_URL ? await postgresDatabase() : null
  backend = await startBackend({ port: 0, dataDir: null, databaseUrl: database?.url ?? '', seed: true, cron: false })
  await backend.db.query(
    "update public.campaigns set pay_rule = 'engaged', engagement_window_days = 14 where id = $1",
    [ENGAGED],
  )
  // Pages of 3 members (MailerLite allows up to 1000) so that the group spans pages.
  await backend.db.query(
    "create or replace function private.esp_list_page_size(p_provider text) returns integer language sql immutable set search_path to '' as $$ select 3 $$",
  )
  for (const name of ['clicked', 'machine', 'quiet-a', 'quiet-b', 'quiet-c', 'gone']) readers.push(await reader(name))
  await backend.cron.drainNet()
  await backend.db.query('select private.dispatch_esp_deliveries()')
  await backend.cron.drainNet()
  expect(
    (
      await backend.db.query(
        `select 1 from public.esp_deliveries d join public.newsletter_subscriptions s on s.id = d.subscription_id
         where s.email = any($1) and d.status = 'delivered'`,
        [readers],
      )
    ).rows,
  ).toHaveLength(6)
  expect((await sandbox('/_control/engagement', { provider: 'mailerlite', email: readers[0], clicks: 1 })).status).toBe(
    200,
  )
  expect(
    (await sandbox('/_control/engagement', { provider: 'mailerlite', email: readers[1], machine_opens: 4 })).status,
  ).toBe(200)
  // Deleted in the tool.
  await backend.db.query('delete from local_esp.subscribers where email = $1', [readers[5]])
  // Fourteen days and a bit pass: the windows close together.
  const d = '14 days 15 minutes'
  await backend.db.query(
    'update public.newsletter_subscriptions set confirmed_at = confirmed_at - $2::interval where email = any($1)',
    [readers, d],
  )
  await backend.db.query(
    `update public.wallet_transactions t set available_at = t.available_at - $2::interval
     from public.newsletter_subscriptions s where s.id = t.subscription_id and s.email = any($1) and t.status = 'pending'`,
    [readers, d],
  )
  await backend.db.query(
    `update public.esp_deliveries x set delivered_at = x.delivered_at - $2::interval
     from public.newsletter_subscriptions s where s.id = x.subscription_id and s.email = any($1)`,
    [readers, d],
  )
  await newReads()
})
afterAll(async () => {
  await backend?.close()
  await database?.drop()
})

describe('list read-back through deliver-esp', () => {
  it('stops at a 429 mid-list: the first page recorded, the key paused, the rest waiting, nobody read one by one', async () => {
    expect(
      (
        await sandbox('/_control/fail', {
          provider: 'mailerlite',
          status: 429,
          count: 1,
          after: 1,
          retryAfterSeconds: 45,
        })
      ).status,
    ).toBe(200)
    expect(await runJob()).toBeGreaterThanOrEqual(6)
    expect(await newReads()).toEqual([
      `200 /api/groups/${GROUP}/subscribers?limit=3&filter[status]=active`,
      `429 /api/groups/${GROUP}/subscribers?limit=3&filter[status]=active&cursor=…`,
    ])
    const pause = await backend.db.query<{ s: number }>(
      "select extract(epoch from paused_until - now())::int as s from private.esp_key_pauses where key_fingerprint = encode(sha256(convert_to('local-mailerlite-key', 'UTF8')), 'hex')",
    )
    expect(pause.rows[0]!.s).toBeGreaterThan(30)
    // The first page's members were recorded; the others wait for the pause.
    const states = await Promise.all(readers.map(stateOf))
    expect(states.every((x) => x.checked !== x.waits)).toBe(true)
    expect(states.filter((x) => x.waits).length).toBeGreaterThanOrEqual(3)
    // Settlement decides those read (by their answer) and leaves the waiting ones undecided.
    await backend.db.query('select public.settle_matured_holds()')
    for (const [i, email] of readers.entries()) if (states[i]!.waits) expect((await stateOf(email)).decision).toBeNull()
    // Paused: the next run reads nothing.
    await runJob()
    expect(await newReads()).toEqual([])
  })

  it('reads the whole group once the pause is over; the reader deleted in the tool waits; the rule decides the rest', async () => {
    await backend.db.query("update private.esp_key_pauses set paused_until = now() - interval '1 second'")
    await backend.db.query(
      `update public.esp_deliveries d set engagement_retry_at = now() - interval '1 second'
       from public.newsletter_subscriptions s where s.id = d.subscription_id and s.email = any($1) and d.engagement_retry_at is not null`,
      [readers],
    )
    await runJob()
    const pages = await newReads()
    expect(pages.length).toBeGreaterThanOrEqual(2)
    expect(pages.every((p) => p.startsWith(`200 /api/groups/${GROUP}/subscribers?limit=3&filter[status]=active`))).toBe(
      true,
    )
    for (const email of readers.slice(0, 5)) expect(await stateOf(email)).toMatchObject({ checked: true, waits: false })
    expect(await stateOf(readers[5]!)).toMatchObject({ checked: false, waits: true })

    // (settlement looked at them again every 5 minutes while they waited)
    await backend.db.query(
      `update public.wallet_transactions t set available_at = now() - interval '1 minute'
       from public.newsletter_subscriptions s where s.id = t.subscription_id and s.email = any($1) and t.status = 'pending'`,
      [readers],
    )
    await backend.db.query('select public.settle_matured_holds()')
    expect(await stateOf(readers[0]!)).toMatchObject({ counted: true, decision: 'engaged' })
    for (const email of readers.slice(1, 5))
      expect(await stateOf(email)).toMatchObject({ counted: false, reason: 'not_engaged', decision: 'not_engaged' })
    expect((await stateOf(readers[5]!)).decision).toBeNull()
  })
})
